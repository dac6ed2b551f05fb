// On a PostgreSQL server every statement of the general pool that binds values is a named
// prepared statement (src/db/statement-names.ts): parsed and planned once per connection instead
// of on every execution. A statement without values keeps the simple protocol (migrations hold
// several commands in one text), and the names are bounded so that a shape built from a list
// cannot fill the server's memory.
import { describe, it } from 'node:test';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { databaseForFile } from '../support/harness.ts';
import { MAX_NAMES, nameStatements, StatementNames } from '../../src/db/statement-names.ts';

describe('statement names', () => {
  it('one name per text, the same on every call; none past the bound or for a text too long', () => {
    const names = new StatementNames(3, 50);
    const a = names.nameOf('SELECT $1');
    expect(a).toBeDefined();
    expect(names.nameOf('SELECT $1')).toBe(a);
    expect(names.nameOf('SELECT $1, $2')).not.toBe(a);
    expect(names.nameOf(`SELECT ${'x'.repeat(60)}`)).toBeUndefined();
    names.nameOf('SELECT 3');
    expect(names.size).toBe(3);
    expect(names.nameOf('SELECT 4')).toBeUndefined();
    expect(names.nameOf('SELECT $1')).toBe(a);
    expect(new StatementNames().nameOf('x'.repeat(10))).toBeDefined();
    expect(MAX_NAMES).toBeGreaterThan(100);
  });

  it('a client names the queries that bind values, and leaves the others (no values, a name of their own) as they were', async () => {
    const seen: unknown[] = [];
    class Client {
      query(...args: unknown[]) {
        seen.push(args[0]);
        return Promise.resolve({ rows: [] });
      }
    }
    const client = new Client() as unknown as pg.PoolClient;
    const names = new StatementNames();
    nameStatements(client, names);
    await client.query('SELECT $1::int', [1]);
    await client.query({ text: 'SELECT $1::text', values: ['a'] });
    await client.query({ text: 'SELECT $1::text', rowMode: 'array' } as pg.QueryConfig, ['b']);
    await client.query('BEGIN');
    await client.query({ text: 'CREATE TABLE a (x int); CREATE TABLE b (y int)' });
    await client.query({ name: 'mine', text: 'SELECT $1::int', values: [2] });
    const named = seen.map((q) => (typeof q === 'string' ? undefined : (q as { name?: string }).name));
    expect(named[0]).toBe(names.nameOf('SELECT $1::int'));
    expect(named[1]).toBe(names.nameOf('SELECT $1::text'));
    expect(named[2]).toBe(named[1]);
    expect((seen[2] as { rowMode?: string }).rowMode).toBe('array');
    expect(named.slice(3)).toEqual([undefined, undefined, 'mine']);
  });
});

const held = databaseForFile();

describe('statement names on the database', () => {
  it('a statement the service runs again is executed from its prepared form (server), and every engine answers it alike', async () => {
    const { database } = held;
    // On the server, one session of the pool: its prepared statements are visible to it.
    const text = sql`SELECT ${'v'}::text AS v, (SELECT count(*)::int FROM pg_prepared_statements WHERE statement LIKE '%AS v, (SELECT count(*)%') AS prepared`;
    let last: { v: string; prepared: number } | undefined;
    await database.db.transaction(async (tx) => {
      for (let i = 0; i < 3; i++)
        last = ((await tx.execute(text)) as unknown as { rows: { v: string; prepared: number }[] }).rows[0];
    });
    expect(last!.v).toBe('v');
    expect(last!.prepared).toBe(database.kind === 'server' ? 1 : 0);
  });
});
