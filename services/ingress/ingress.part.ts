/**
 * The ingress part: the stream-data listener, the receivers for Elasticsearch shippers and
 * Alertmanager, and the micro-batcher they share.
 */
import type { Part } from '../part.js';
import { RECORDS_STREAM } from '../runtime/bus-streams.js';
import { alertmanagerRoute } from './alertmanager.route.js';
import { elasticRoutes } from './elastic-bulk.route.js';
import { createMicroBatcher } from './micro-batcher.js';
import { streamDataRoute } from './stream-data.route.js';

const MESSAGE_HEADROOM_BYTES = 16 * 1024;

export const ingressPart: Part = {
  name: 'ingress',
  async start(ctx) {
    await ctx.engines.bus.ensureStream(RECORDS_STREAM);
    const { bus } = ctx.engines;
    // A message must fit the bus: NATS refuses one over its max_payload (1 MB by default). The
    // headroom is for the message's headers and the batch's own header lines.
    const maxMessageBytes = Math.min(ctx.config.batching.maxBytes, bus.maxMessageBytes - MESSAGE_HEADROOM_BYTES);
    const batcher = createMicroBatcher({ ...ctx.config.batching, maxBytes: maxMessageBytes }, { bus, logger: ctx.logger, metrics: ctx.metrics });
    ctx.lifecycle.onStop('ingress batches', () => batcher.flush());
    const receiverDeps = {
      streams: ctx.controlPlane.model.slices.streams,
      batcher,
      now: ctx.now,
      maxBodyBytes: ctx.config.maxBodyBytes,
      maxRecords: ctx.config.batching.maxRecords,
      maxMessageBytes,
      disk: ctx.disk,
    };
    return [streamDataRoute(receiverDeps), ...elasticRoutes(receiverDeps), alertmanagerRoute(receiverDeps)];
  },
};
