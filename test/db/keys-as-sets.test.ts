// docs/decisions.md, Keys checked as sets (issue 27, point 8): four keys the bulk import writes a
// thousand times per batch (a user's company, a licence's subscription and user, a report line's
// import) are checked once per statement by the triggers of migration 0036 instead of by foreign
// keys. These tests hold them to what the foreign keys guaranteed: a row naming a missing parent is
// refused (SQLSTATE 23503 under the key's old name, so the API still answers UNKNOWN_REFERENCE),
// with nothing of its statement kept; deleting a parent deletes its licences or report lines, or is
// refused while users name it; a referenced id cannot change; and, on a server, a delete and a
// writer naming the same parent at once never leave a row without its parent. Runs on PGlite and
// on PostgreSQL (TEST_DATABASE_URL).
import { describe, it } from 'node:test';
import { sql, type SQL } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { databaseForFile } from '../support/harness.ts';
import type { Executor } from '../../src/db/client.ts';
import { newId } from '../../src/shared/ids.ts';

const file = databaseForFile();
const db = () => file.database.db;

const count = async (exec: Executor, query: SQL) =>
  Number(((await exec.execute(query)) as unknown as { rows: { n: string | number }[] }).rows[0].n);

/** The SQLSTATE and constraint of a refused statement (drizzle wraps the driver's error). */
async function refusal(run: Promise<unknown>): Promise<{ code: unknown; constraint: unknown }> {
  try {
    await run;
  } catch (err) {
    for (let e: unknown = err, depth = 0; e && depth < 3; e = Reflect.get(Object(e), 'cause'), depth++) {
      const code = Reflect.get(Object(e), 'code');
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
        return { code, constraint: Reflect.get(Object(e), 'constraint') };
    }
    throw err;
  }
  throw new Error('the statement was not refused');
}

/** A company with a subscription, two users holding its licences, and an import with two report lines. */
async function world(exec: Executor = db()) {
  const w = {
    company: newId(),
    offer: newId(),
    subscription: newId(),
    users: [newId(), newId()],
    importId: newId(),
  };
  await exec.execute(sql`INSERT INTO companies (id, name) VALUES (${w.company}, 'keys as sets')`);
  await exec.execute(sql`INSERT INTO offers (id, name) VALUES (${w.offer}, 'keys as sets')`);
  await exec.execute(
    sql`INSERT INTO subscriptions (id, company_id, offer_id) VALUES (${w.subscription}, ${w.company}, ${w.offer})`,
  );
  for (const [i, id] of w.users.entries())
    await exec.execute(
      sql`INSERT INTO users (id, company_id, login_email, password_hash) VALUES (${id}, ${w.company}, ${`keys-${id}-${i}@example.com`}, '')`,
    );
  await exec.execute(
    sql`INSERT INTO licences (subscription_id, user_id, user_company_id) SELECT ${w.subscription}, u, ${w.company} FROM unnest(${sql.param(w.users)}::text[]) u`,
  );
  await exec.execute(sql`INSERT INTO imports (id, company_id, user_id, display_name, route, mode, options, start_time)
    VALUES (${w.importId}, ${w.company}, ${w.users[0]}, 'keys', 'importCsv', 'user', '{}'::jsonb, now())`);
  await exec.execute(sql`INSERT INTO import_lines (req_id, line, login, status, entry)
    VALUES (${w.importId}, 2, 'a', 'succeeded', '{}'::jsonb), (${w.importId}, 3, 'b', 'succeeded', '{}'::jsonb)`);
  return w;
}

const licencesOf = (exec: Executor, column: 'subscription_id' | 'user_id', id: string) =>
  count(exec, sql`SELECT count(*) AS n FROM licences WHERE ${sql.identifier(column)} = ${id}`);

describe('keys checked as sets (migration 0036)', () => {
  it('refuses a row naming a missing parent with 23503 and the key name, keeping nothing of the statement', async () => {
    const w = await world();
    const missing = newId();
    const cases: [SQL, string][] = [
      [
        sql`INSERT INTO users (id, company_id, login_email, password_hash) VALUES
          (${newId()}, ${w.company}, ${`k-${newId()}@example.com`}, ''), (${newId()}, ${missing}, ${`k-${newId()}@example.com`}, '')`,
        'users_company_id_companies_id_fk',
      ],
      [
        sql`INSERT INTO licences (subscription_id, user_id, user_company_id) VALUES (${missing}, ${w.users[0]}, ${w.company})`,
        'licences_subscription_id_subscriptions_id_fk',
      ],
      [
        sql`INSERT INTO licences (subscription_id, user_id, user_company_id) VALUES (${w.subscription}, ${missing}, ${w.company})`,
        'licences_user_id_users_id_fk',
      ],
      [
        sql`INSERT INTO import_lines (req_id, line, login, status, entry) VALUES (${missing}, 2, 'x', 'failed', '{}'::jsonb)`,
        'import_lines_req_id_imports_id_fk',
      ],
      [sql`UPDATE users SET company_id = ${missing} WHERE id = ${w.users[1]}`, 'users_company_id_companies_id_fk'],
      [sql`UPDATE licences SET user_id = ${missing} WHERE user_id = ${w.users[1]}`, 'licences_user_id_users_id_fk'],
    ];
    for (const [statement, constraint] of cases)
      expect(await refusal(db().execute(statement))).toEqual({ code: '23503', constraint });
    expect(await count(db(), sql`SELECT count(*) AS n FROM users WHERE company_id = ${w.company}`)).toBe(2);
    expect(await licencesOf(db(), 'subscription_id', w.subscription)).toBe(2);
  });

  it('lets a statement name parents that exist, as many rows as it writes, and a user move to an existing company', async () => {
    const w = await world();
    const other = newId();
    await db().execute(sql`INSERT INTO companies (id, name) VALUES (${other}, 'other')`);
    await db().execute(sql`UPDATE users SET company_id = ${other} WHERE id = ${w.users[1]}`);
    await db().execute(sql`UPDATE users SET first_name = 'unchanged key' WHERE company_id = ${other}`);
    await db().execute(sql`INSERT INTO import_lines (req_id, line, login, status, entry)
      SELECT ${w.importId}, g, 'x', 'succeeded', '{}'::jsonb FROM generate_series(4, 1003) g`);
    expect(await count(db(), sql`SELECT count(*) AS n FROM import_lines WHERE req_id = ${w.importId}`)).toBe(1002);
  });

  it('deletes the licences of a deleted subscription or user and the report lines of a deleted import', async () => {
    const a = await world();
    await db().execute(sql`DELETE FROM users WHERE id = ${a.users[0]}`);
    expect(await licencesOf(db(), 'user_id', a.users[0])).toBe(0);
    expect(await licencesOf(db(), 'user_id', a.users[1])).toBe(1);
    await db().execute(sql`DELETE FROM subscriptions WHERE id = ${a.subscription}`);
    expect(await licencesOf(db(), 'subscription_id', a.subscription)).toBe(0);
    await db().execute(sql`DELETE FROM imports WHERE id = ${a.importId}`);
    expect(await count(db(), sql`SELECT count(*) AS n FROM import_lines WHERE req_id = ${a.importId}`)).toBe(0);
  });

  it('refuses deleting a company its users name, and changing an id that rows name', async () => {
    const w = await world();
    // A company that only users name (other tables name it by foreign keys of their own).
    const named = newId();
    await db().execute(sql`INSERT INTO companies (id, name) VALUES (${named}, 'named by a user')`);
    await db().execute(
      sql`INSERT INTO users (id, company_id, login_email, password_hash) VALUES (${newId()}, ${named}, ${`named-${named}@example.com`}, '')`,
    );
    expect(await refusal(db().execute(sql`DELETE FROM companies WHERE id = ${named}`))).toEqual({
      code: '23503',
      constraint: 'users_company_id_companies_id_fk',
    });
    const renames: [SQL, string][] = [
      [sql`UPDATE companies SET id = ${newId()} WHERE id = ${named}`, 'users_company_id_companies_id_fk'],
      [
        sql`UPDATE subscriptions SET id = ${newId()} WHERE id = ${w.subscription}`,
        'licences_subscription_id_subscriptions_id_fk',
      ],
      [sql`UPDATE users SET id = ${newId()} WHERE id = ${w.users[0]}`, 'licences_user_id_users_id_fk'],
      [sql`UPDATE imports SET id = ${newId()} WHERE id = ${w.importId}`, 'import_lines_req_id_imports_id_fk'],
    ];
    for (const [statement, constraint] of renames)
      expect(await refusal(db().execute(statement))).toEqual({ code: '23503', constraint });
    // An id nothing names may change, as with a foreign key.
    const lone = newId();
    await db().execute(sql`INSERT INTO companies (id, name) VALUES (${lone}, 'lone')`);
    await db().execute(sql`UPDATE companies SET id = ${newId()} WHERE id = ${lone}`);
  });

  it('on a server, a delete waits for a writer naming its row and removes what he wrote', async (t) => {
    if (file.database.kind !== 'server') return t.skip('one transaction at a time on the embedded database');
    const w = await world();
    const late = newId();
    await db().execute(
      sql`INSERT INTO users (id, company_id, login_email, password_hash) VALUES (${late}, ${w.company}, ${`late-${late}@example.com`}, '')`,
    );
    let release!: () => void;
    const mayCommit = new Promise<void>((r) => (release = r));
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    const writer = db().transaction(async (tx) => {
      await tx.execute(
        sql`INSERT INTO licences (subscription_id, user_id, user_company_id) VALUES (${w.subscription}, ${late}, ${w.company})`,
      );
      wrote();
      await mayCommit;
    });
    await written;
    let deleted = false;
    const deleter = db()
      .execute(sql`DELETE FROM users WHERE id = ${late}`)
      .then(() => (deleted = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(deleted).toBe(false);
    release();
    await writer;
    await deleter;
    expect(await licencesOf(db(), 'user_id', late)).toBe(0);
  });

  it('on a server, a writer naming a row deleted meanwhile is refused', async (t) => {
    if (file.database.kind !== 'server') return t.skip('one transaction at a time on the embedded database');
    const w = await world();
    const gone = newId();
    await db().execute(
      sql`INSERT INTO users (id, company_id, login_email, password_hash) VALUES (${gone}, ${w.company}, ${`gone-${gone}@example.com`}, '')`,
    );
    let release!: () => void;
    const mayCommit = new Promise<void>((r) => (release = r));
    let deletedIt!: () => void;
    const deletedOpen = new Promise<void>((r) => (deletedIt = r));
    const deleter = db().transaction(async (tx) => {
      await tx.execute(sql`DELETE FROM users WHERE id = ${gone}`);
      deletedIt();
      await mayCommit;
    });
    await deletedOpen;
    const writer = refusal(
      db().execute(
        sql`INSERT INTO licences (subscription_id, user_id, user_company_id) VALUES (${w.subscription}, ${gone}, ${w.company})`,
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    release();
    await deleter;
    expect(await writer).toEqual({ code: '23503', constraint: 'licences_user_id_users_id_fk' });
    expect(await licencesOf(db(), 'user_id', gone)).toBe(0);
  });
});
