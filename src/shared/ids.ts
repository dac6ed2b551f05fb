// Identifiers, digests and random secrets: one definition for every module.
import { createHash, randomBytes } from 'node:crypto';

export function newId(): string {
  // 24 hex characters: the shape of identifiers in the original interface.
  return randomBytes(12).toString('hex');
}

export function sha256hex(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
