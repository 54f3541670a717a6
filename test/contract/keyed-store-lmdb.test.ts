import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { openLmdbKeyedStore } from '../../services/runtime/adapters/keyed/lmdb.adapter.js';
import { silentLogger } from '../../services/runtime/logger.js';
import { keyedStoreContract } from './keyed-store.contract.js';

const logger = silentLogger();

keyedStoreContract(t, 'lmdb', async () => {
  const path = mkdtempSync(join(tmpdir(), 'ops-keyed-lmdb-'));
  const openOne = () => openLmdbKeyedStore({ path }, { logger });
  return {
    store: await openOne(),
    openAnother: openOne,
    reopen: openOne,
    cleanup: async () => rmSync(path, { recursive: true, force: true }),
  };
});
