/**
 * Remembers when each token was last used. Writing the journal on every request would make reads
 * into writes, so uses are noted in memory and committed in one batch at most once a minute
 * (and at stop).
 */
import type { ControlPlane } from '../control-plane/control-plane.js';
import { recordTokenUse } from '../control-plane/identity/identity.commands.js';
import type { PlatformModel } from '../control-plane/model.js';
import type { Logger } from '../runtime/logger.js';

export interface TokenUsage {
  note(tokenId: number): void;
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export function createTokenUsage(deps: { controlPlane: ControlPlane<PlatformModel>; logger: Logger; now: () => number; intervalMs?: number }): TokenUsage {
  let pending = new Map<number, number>();
  const flush = async (): Promise<void> => {
    if (pending.size === 0) return;
    const batch = new Map([...pending].map(([id, at]) => [id, new Date(at).toISOString()]));
    pending = new Map();
    try {
      await deps.controlPlane.execute(recordTokenUse(batch));
    } catch (err) {
      deps.logger.warn({ err }, 'recording token use failed');
    }
  };
  const timer = setInterval(() => void flush(), deps.intervalMs ?? 60_000);
  timer.unref();
  return {
    note(tokenId) {
      pending.set(tokenId, deps.now());
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
  };
}
