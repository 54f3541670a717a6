/** What a step makes of one record: a value to go on with, or a reason to dead-letter it. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

export const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const deadLetter = (reason: string): Outcome<never> => ({ ok: false, reason });
