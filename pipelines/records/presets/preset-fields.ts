/** What the presets build records from: plain objects keyed by what agents send, and numbers. */

export type Fields = Record<string, unknown>;

/**
 * Sets `key` on a plain object, whatever the key: an agent's `__proto__` tag is a field like any
 * other (an assignment would set the object's prototype instead).
 */
export function put(target: Fields, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** A plain decimal number as agents write it: `-1`, `0.5`, `1.`, `.5`, `1e-3`. */
const DECIMAL_NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A float as C's printf and Python's repr write it, or null for what JSON cannot hold (`nan`,
 * `inf`, and collectd's `U` for unknown), or undefined when the text is no number.
 */
export function floatOf(text: string): number | null | undefined {
  if (DECIMAL_NUMBER.test(text)) {
    const n = Number(text);
    return Number.isFinite(n) ? n : null;
  }
  return /^(?:[+-]?(?:nan|inf|infinity)|U)$/i.test(text) ? null : undefined;
}
