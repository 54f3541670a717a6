/**
 * Hands the closes the control plane decided (a CI or trigger deleted: `pclose` records) to the
 * keys' owners, as soon as a close arrives and again every few seconds until its owner removed
 * it; and closes keys left open on a CI or trigger that no longer exists (a hit that was on its
 * way when the CI was deleted). Every process running the stage does it: the message id makes
 * their copies one.
 */
import type { KeyClose } from '../../../pipelines/problems/hit-envelope.js';
import type { PlatformModel } from '../../control-plane/model.js';
import type { Logger } from '../../runtime/logger.js';
import type { HitsPublisher } from './hits-publisher.js';

const SWEEP_EVERY_MS = 5_000;

/** The closes due now: the pending ones, and open keys whose CI or trigger is gone. */
export function closesDue(model: PlatformModel, now: number): KeyClose[] {
  const { problems, cmdb, triggers } = model.slices;
  const due: KeyClose[] = [...problems.pendingCloses.values()];
  const pending = new Set(due.map((c) => `${c.triggerId}:${c.ciId}`));
  for (const s of problems.summaries.values()) {
    if (!s.open || pending.has(`${s.triggerId}:${s.ciId}`)) continue;
    if (!cmdb.cis.has(s.ciId) || !triggers.triggers.has(s.triggerId)) due.push({ triggerId: s.triggerId, ciId: s.ciId, at: now });
  }
  return due;
}

export function startCloseSweep(deps: { model: PlatformModel; publisher: HitsPublisher; logger: Logger; now: () => number }): () => void {
  const { model, publisher, logger } = deps;
  const send = (closes: KeyClose[]): void => {
    if (closes.length === 0) return;
    publisher.close(closes).catch((err: unknown) => logger.warn({ err, closes: closes.length }, 'handing closes to the problem stage failed; retrying at the next sweep'));
  };
  const unlisten = model.slices.problems.onPendingClose((close) => send([close]));
  send(closesDue(model, deps.now()));
  const timer = setInterval(() => send(closesDue(model, deps.now())), SWEEP_EVERY_MS);
  timer.unref();
  return () => {
    unlisten();
    clearInterval(timer);
  };
}
