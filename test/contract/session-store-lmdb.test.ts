import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openLmdbSessionStore } from '../../services/runtime/adapters/sessions/lmdb.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { sessionStoreContract } from './session-store.contract.js';

const logger = silentLogger();

sessionStoreContract(t, 'lmdb', async (now) => {
  const path = mkdtempSync(join(tmpdir(), 'ops-sessions-lmdb-'));
  const openOne = () => openLmdbSessionStore({ path }, { logger, now });
  return { store: await openOne(), openAnother: openOne, cleanup: async () => rmSync(path, { recursive: true, force: true }) };
});
