// The service as a real process (src/main.ts with the environment and flags of `npm start`), for the
// end-to-end tests that kill it or run two of it: scripts/bench.ts starts it (startService), this
// file gives each test a fresh database of the engine of its pass (TEST_DATABASE_URL set: a new
// database on that PostgreSQL server; else a new embedded DATA_DIR) and an HTTP client.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client.ts';
import {
  login,
  startService,
  SUPERADMIN_EMAIL,
  SUPERADMIN_PASSWORD,
  type Child,
} from '../../scripts/service-process.ts';

export { startService, type Child };

export interface FreshStore {
  engine: 'postgresql' | 'embedded';
  /** DATABASE_URL or DATA_DIR, as the service reads it. */
  env: Record<string, string>;
  /** Opens the database from this process (embedded: only while no service holds the folder). */
  open(): Database;
  drop(): Promise<void>;
}

/** A fresh database of the engine of this pass: PostgreSQL when TEST_DATABASE_URL is set, else embedded. */
export async function freshStore(): Promise<FreshStore> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) {
    const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
    return {
      engine: 'embedded',
      env: { DATA_DIR: dir },
      open: () => openDatabase({ dataDir: dir }),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `svc_e2e_${randomBytes(6).toString('hex')}`;
  const run = async (q: string) => {
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    try {
      await c.query(q);
    } finally {
      await c.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    engine: 'postgresql',
    env: { DATABASE_URL: url.toString() },
    open: () => openDatabase({ url: url.toString(), poolSize: 2 }),
    drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** An HTTP client of a running service, signed in as the first superadmin (the one startService sets). */
export async function clientOf(service: Child) {
  const token = await login(service.base, SUPERADMIN_EMAIL, SUPERADMIN_PASSWORD);
  return async function call(method: string, path: string, body?: string | object, type = 'application/json') {
    const res = await fetch(`${service.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': typeof body === 'string' ? type : 'application/json' } : {}),
      },
      body: body === undefined || typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
}
export type Call = Awaited<ReturnType<typeof clientOf>>;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
