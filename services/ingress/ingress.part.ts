/** The ingress part: the stream-data listener and its micro-batcher. */
import type { Part } from '../platform.js';
import { RECORDS_STREAM } from '../runtime/bus-streams.js';
import { createMicroBatcher } from './micro-batcher.js';
import { streamDataRoute } from './stream-data.route.js';

export const ingressPart: Part = {
  name: 'ingress',
  async start(ctx) {
    await ctx.engines.bus.ensureStream(RECORDS_STREAM);
    const batcher = createMicroBatcher(ctx.config.batching, { bus: ctx.engines.bus, logger: ctx.logger, metrics: ctx.metrics });
    ctx.lifecycle.onStop('ingress batches', () => batcher.flush());
    return [streamDataRoute({ streams: ctx.controlPlane.model.slices.streams, batcher, now: ctx.now, maxBodyBytes: ctx.config.maxBodyBytes })];
  },
};
