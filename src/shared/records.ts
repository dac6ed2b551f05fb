// Telling a JSON object from the other values, so that code reading unknown input needs no cast.

/** A non-null object that is not an array or a Buffer: a JSON object's shape. */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !Buffer.isBuffer(v);
