/**
 * Issue #34 at the receivers' common step (hand-over.ts): under the disk watermark nothing is
 * handed to the bus (503 ingest.disk_low); a bus that refuses for a full store (the in-process
 * log's disk, JetStream's storage) answers 503 storage.full; any other refusal stays
 * ingest.bus_unavailable.
 */
import t from 'tap';
import { handOver, type ReceiverDeps } from '../../../../services/ingress/hand-over.js';
import type { MicroBatcher } from '../../../../services/ingress/micro-batcher.js';
import { BusUnavailableError } from '../../../../services/runtime/adapters/bus/bus.port.js';
import { type AppError, failLater, isAppError } from '../../../../schemas/errors.js';
import { storageFull } from '../../../../services/runtime/storage-full.js';

function depsWith(refusal: unknown, disk?: () => AppError | undefined): { deps: ReceiverDeps; added: () => number } {
  let added = 0;
  const batcher: MicroBatcher = {
    add: () => {
      added++;
      return refusal === undefined ? Promise.resolve() : Promise.reject(refusal);
    },
    flush: () => Promise.resolve(),
    inFlight: () => 0,
  };
  const deps = {
    batcher,
    now: () => 0,
    maxBodyBytes: 1 << 20,
    maxRecords: 1000,
    maxMessageBytes: 1 << 20,
    ...(disk ? { disk: { ingestRefusal: disk } } : {}),
  } as unknown as ReceiverDeps;
  return { deps, added: () => added };
}

const codeOf = async (run: Promise<void>): Promise<string | undefined> => {
  try {
    await run;
    return undefined;
  } catch (error) {
    return isAppError(error) ? error.code : String(error);
  }
};

t.test('under the watermark: 503 ingest.disk_low, and nothing handed to the bus', async (t) => {
  const { deps, added } = depsWith(undefined, () => failLater('ingest.disk_low', 10, { free: '10 MiB', limit: '1.0 GiB' }));
  t.equal(await codeOf(handOver(deps, 1, 0, 'json', ['{"a":1}'])), 'ingest.disk_low');
  t.equal(added(), 0);
  const open = depsWith(undefined, () => undefined);
  t.equal(await codeOf(handOver(open.deps, 1, 0, 'json', ['{"a":1}'])), undefined, 'taken over the watermark');
  t.equal(open.added(), 1);
});

t.test('a bus refusing for a full store: 503 storage.full; any other refusal: ingest.bus_unavailable', async (t) => {
  const log = new BusUnavailableError('a message of RECORDS could not be written to the bus log: …', 1, { cause: storageFull('bus', 'no space left on device') });
  t.equal(await codeOf(handOver(depsWith(log).deps, 1, 0, 'json', ['{"a":1}'])), 'storage.full', 'the in-process log on a full disk');
  const jetstream = new BusUnavailableError('publish to records.1: insufficient storage resources available');
  t.equal(await codeOf(handOver(depsWith(jetstream).deps, 1, 0, 'json', ['{"a":1}'])), 'storage.full', 'JetStream out of storage');
  const busy = new BusUnavailableError('stream RECORDS holds 100000 messages, its bound');
  t.equal(await codeOf(handOver(depsWith(busy).deps, 1, 0, 'json', ['{"a":1}'])), 'ingest.bus_unavailable', 'a backlog at its bound');
});
