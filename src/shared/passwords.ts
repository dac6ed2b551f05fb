// Password rules and storage: argon2id (@node-rs/argon2, the library's recommended parameters).
import { hash, verify } from '@node-rs/argon2';
import { fail } from '../errors/catalogue.ts';

/** At least 8 characters with upper case, lower case, a digit and a special character. */
export function isStrongPassword(p: string): boolean {
  return (
    p.length >= 8 && p.length <= 256 && /[A-Z]/.test(p) && /[a-z]/.test(p) && /\d/.test(p) && /[^A-Za-z0-9]/.test(p)
  );
}

export async function hashPassword(plain: string): Promise<string> {
  if (!isStrongPassword(plain)) fail('WEAK_PASSWORD');
  return hash(plain);
}

// Verifying against this when the account does not exist keeps the answer time the same,
// so response times do not reveal which login emails exist.
let dummy: Promise<string> | undefined;

export async function verifyPassword(stored: string | undefined, plain: string): Promise<boolean> {
  if (!stored) {
    dummy ??= hash('Dummy-password-1');
    await verify(await dummy, plain).catch(() => false);
    return false;
  }
  return verify(stored, plain).catch(() => false);
}
