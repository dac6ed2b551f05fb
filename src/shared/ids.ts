// Identifiers, digests and random secrets: one definition for every module.
import { createHash, randomBytes, randomFillSync } from 'node:crypto';

// An identifier is 12 bytes, written as 24 hex characters (the shape of identifiers in the original
// interface, whose identifiers begin with their creation time too): the creation second (4 bytes),
// a counter of this process (3 bytes) and random bytes (5). Identifiers made one after the other
// are therefore in ascending order, so a table's key index and the indexes that lead with a key
// (a licence's user, a user's JID) take a new row at their right end instead of at a random page:
// the database's CPU per import line about a tenth less (docs/decisions.md, Performance,
// "Identifiers in creation order"). The random part keeps the next identifier unguessable from the
// last (2^40 candidates); no identifier is a secret (tokens and keys come from randomSecret).
// Random bytes are drawn 4 KB at a time and handed out 5 by 5.
const POOL = Buffer.alloc(5 * 819);
let used = POOL.length;
let counter = randomFillSync(Buffer.alloc(3)).readUIntBE(0, 3);
const ID = Buffer.alloc(12);

export function newId(): string {
  if (used === POOL.length) {
    randomFillSync(POOL);
    used = 0;
  }
  counter = (counter + 1) & 0xffffff;
  ID.writeUInt32BE(Math.floor(Date.now() / 1000) >>> 0, 0);
  ID.writeUIntBE(counter, 4, 3);
  POOL.copy(ID, 7, used, used + 5);
  used += 5;
  return ID.toString('hex');
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
