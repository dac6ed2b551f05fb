// Keys shared by every instance, generated at first start and kept in the database: the JWT
// signing key and the key that seals application secrets. They never leave the database
// except into the memory of the instances.
import { randomBytes, createCipheriv, createDecipheriv } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { serverKeys } from './auth.tables.ts';

export interface ServerKeys {
  jwt: Uint8Array;
  seal: Buffer;
}

async function readKey(db: Db, name: string): Promise<Buffer | undefined> {
  const rows = await db
    .select()
    .from(serverKeys)
    .where(sql`${serverKeys.name} = ${name}`);
  return rows[0] ? Buffer.from(rows[0].value, 'base64') : undefined;
}

async function loadOrCreate(db: Db, name: string): Promise<Buffer> {
  // Read first: a restart writes nothing (docs/decisions.md, Performance, "A restart writes
  // nothing it does not have to"). Absent, insert-if-absent then read again: two instances
  // starting together agree on one key.
  const found = await readKey(db, name);
  if (found) return found;
  await db
    .insert(serverKeys)
    .values({ name, value: randomBytes(32).toString('base64') })
    .onConflictDoNothing();
  const made = await readKey(db, name);
  if (!made) throw new Error(`the server key ${name} could not be stored`);
  return made;
}

export async function loadServerKeys(db: Db): Promise<ServerKeys> {
  return { jwt: new Uint8Array(await loadOrCreate(db, 'jwt-hs256')), seal: await loadOrCreate(db, 'app-secret-seal') };
}

/** AES-256-GCM: iv.tag.ciphertext, base64 parts. */
export function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return [iv, c.getAuthTag(), ct].map((b) => b.toString('base64')).join('.');
}

export function unseal(key: Buffer, sealed: string): string {
  const [iv, tag, ct] = sealed.split('.').map((p) => Buffer.from(p, 'base64'));
  const d = createDecipheriv('aes-256-gcm', key, iv);
  d.setAuthTag(tag);
  return Buffer.concat([d.update(ct), d.final()]).toString('utf8');
}
