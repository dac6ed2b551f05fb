// Values read from JSON the database builds (the extras of an authorising statement,
// src/http/operation.ts) or a client sends: checked where read, not asserted.

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A text, else null (SQL NULL, or an absent key). */
export const textOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The texts of an array, else none (SQL NULL, or an absent key). */
export const texts = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** A record with one entry per key: the one assertion of a record built from a list of keys. */
export function recordOf<K extends string, V>(keys: readonly K[], value: (k: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((k) => [k, value(k)])) as Record<K, V>;
}
