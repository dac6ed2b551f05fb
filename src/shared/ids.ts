// Identifiers, digests and random secrets: one definition for every module.
import { createHash, randomBytes, randomFillSync } from 'node:crypto';

// Random bytes are drawn 4 KB at a time and handed out 12 by 12: one call into the random source
// per 341 identifiers instead of one each (a subscription's creation takes about ten).
const POOL = Buffer.alloc(12 * 341);
let used = POOL.length;

export function newId(): string {
  // 24 hex characters: the shape of identifiers in the original interface.
  if (used === POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  used += 12;
  return POOL.toString('hex', used - 12, used);
}

/** An identifier of the same shape named after `name`: the same name always gives the same one. */
export function idFor(name: string): string {
  return createHash('sha256').update(name).digest('hex').slice(0, 24);
}

export function sha256hex(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
