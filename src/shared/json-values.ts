// Values read from JSON the database builds (the extras of an authorising statement,
// src/http/operation.ts) or a client sends: checked where read, not asserted.

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A text, else null (SQL NULL, or an absent key). */
export const textOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The text of a scalar as written in a message or a document: texts as they are, dates in ISO 8601, others as JSON. */
export function scalarText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  return JSON.stringify(v) ?? '';
}

/** A text, else the empty text. */
export const textOr = (v: unknown, otherwise = ''): string => (typeof v === 'string' ? v : otherwise);

/** The texts of an array, else none (SQL NULL, or an absent key). */
export const texts = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** A record with one entry per key: the one assertion of a record built from a list of keys. */
export function recordOf<K extends string, V>(keys: readonly K[], value: (k: K) => V): Record<K, V> {
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- Object.fromEntries answers a string-keyed record
  return Object.fromEntries(keys.map((k) => [k, value(k)])) as Record<K, V>;
}

/** Whether a value is one of a list's members (a type guard, so no assertion follows it). */
export const isOneOf = <T extends string | number>(list: readonly T[], v: unknown): v is T => list.some((x) => x === v);

/** The message of anything thrown (an Error's message, else its text). */
export const errorMessage = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** A property of an object of unknown shape, read without asserting its shape. */
export const field = (v: unknown, key: string): unknown => (isRecord(v) ? v[key] : undefined);
