// The statements of the busiest write paths run without Drizzle's query builder (src/db/raw.ts):
// rendered once, bound on each call, on the executor's own session (a transaction's included).
// What they write and give back must be what Drizzle's own insert and select give.
import { describe, it } from 'node:test';
import { eq, inArray, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { databaseForFile } from '../support/harness.ts';
import { rowInserter, rowsInserter, sessionOf, statement } from '../../src/db/raw.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { billingCharges } from '../../src/modules/billing/charges.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import type { Role } from '../../src/authz/roles.ts';

const held = databaseForFile();
const insertCharge = rowInserter(billingCharges);
const insertCompanies = rowsInserter(companies, { returning: 'id' });

describe('raw statements', () => {
  it("rowInserter writes the row Drizzle would and gives it back as Drizzle's select does (JSON, dates, defaults), whatever columns are given", async () => {
    const { db } = held.database;
    const full = {
      id: newId(),
      subscriptionId: 's1',
      companyId: 'c1',
      invoicedCompanyId: 'bp1',
      currency: 'EUR',
      changeDate: '2026-11-27',
      items: [{ kind: 'licence', quantity: 2, amount: '10.00' }] as never,
      invoiceId: 'inv-1',
    };
    const back = await insertCharge(db, full);
    const [read] = await db.select().from(billingCharges).where(eq(billingCharges.id, full.id));
    expect(back).toEqual(read);
    expect(back).toMatchObject({ ...full, createdAt: expect.any(Date) });
    // Another set of columns: the ones left out take the database's defaults.
    const { invoiceId: _none, ...fewer } = { ...full, id: newId() };
    const second = await insertCharge(db, fewer);
    expect(second.invoiceId).toBeNull();
    expect(second).toEqual((await db.select().from(billingCharges).where(eq(billingCharges.id, fewer.id)))[0]);
  });

  it("runs in the caller's transaction: rolled back with it", async () => {
    const { db } = held.database;
    const id = newId();
    await db
      .transaction(async (tx) => {
        await insertCharge(tx, {
          id,
          subscriptionId: 's',
          companyId: 'c',
          invoicedCompanyId: 'b',
          currency: 'EUR',
          changeDate: '2026-11-27',
          items: [] as never,
        });
        expect((await tx.select().from(billingCharges).where(eq(billingCharges.id, id))).length).toBe(1);
        tx.rollback();
      })
      .catch(() => undefined);
    expect((await db.select().from(billingCharges).where(eq(billingCharges.id, id))).length).toBe(0);
  });

  it('a statement binds its placeholders by name, the same one several times, and keeps constants', async () => {
    const st = statement<'a' | 'b'>(
      sql`SELECT ${sql.placeholder('a')}::int + ${sql.placeholder('b')}::int + ${sql.placeholder('a')}::int AS n, ${'k'}::text AS k`,
    );
    expect(await st.rows(held.database.db, { a: 2, b: 5 })).toEqual([{ n: 9, k: 'k' }]);
  });

  it('refuses an SQL value (its text would not be bound as a value)', async () => {
    await expect(
      insertCharge(held.database.db, {
        id: newId(),
        subscriptionId: 's',
        companyId: 'c',
        invoicedCompanyId: 'b',
        currency: sql`'EUR'` as never,
        changeDate: '2026-11-27',
        items: [] as never,
      }),
    ).rejects.toThrow(/is SQL/);
  });
  it('rowsInserter leaves out a nullable column without default that no row fills, and the rows read as given (the import: issue 27, point 8)', async () => {
    const { db } = held.database;
    const session = sessionOf(db) as unknown as { query: (text: string, ...rest: unknown[]) => unknown };
    const query = session.query;
    const texts: string[] = [];
    session.query = function (this: unknown, text: string, ...rest: unknown[]) {
      texts.push(text);
      return query.call(this, text, ...rest);
    };
    const rows = ['A', 'B', 'C'].map((n, i) => ({
      id: newId(),
      name: `Rows ${n}`,
      city: null,
      street: null,
      state: i === 1 ? ('NY' as const) : null,
      description: i === 2 ? 'given' : null,
    }));
    let made: unknown[];
    try {
      made = await insertCompanies(db, rows);
    } finally {
      session.query = query;
    }
    expect(made.sort()).toEqual(rows.map((r) => r.id).sort());
    const text = texts.find((t) => t.includes('INSERT INTO "companies"'))!;
    // Nobody's city or street: left out. A state and a description in one row each: written.
    expect(text).not.toContain('"city"');
    expect(text).not.toContain('"street"');
    expect(text).toContain('"state"');
    expect(text).toContain('"description"');
    for (const r of rows) {
      const [read] = await db.select().from(companies).where(eq(companies.id, r.id));
      expect(read).toMatchObject({
        name: r.name,
        city: null,
        street: null,
        state: r.state,
        description: r.description,
      });
    }
  });

  it("rowsInserter writes every kind of value as Drizzle's insert does: text that looks like an array or NULL, JSON, arrays, dates, booleans (issue 27, point 8)", async () => {
    const { db } = held.database;
    const [companyId] = (await insertCompanies(db, [{ id: newId(), name: 'Kinds of values' }])) as string[];
    const awkward = [
      'plain',
      'with "quotes"',
      'back\\slash\\',
      'comma, {braces}',
      'NULL',
      '',
      'line\nbreak',
      'é ü 日本',
    ];
    const given = awkward.map((text, i) => ({
      id: newId(),
      companyId,
      loginEmail: `kinds-${i}-${newId()}@example.com`,
      passwordHash: '',
      firstName: text,
      lastName: `Last ${text}`,
      nickName: i % 2 ? null : text,
      // Text that is no role, for the array's escaping: the column itself holds any text.
      roles: (i === 0 ? ['user'] : ['user', text]) as Role[],
      emails: [{ email: `k${i}@example.com`, type: 'work' as const }],
      phoneNumbers: [],
      customisations: { text, nested: { n: i, none: null, list: [text, 1, true] } },
      isTerminated: i % 2 === 1,
      creationDate: new Date(Date.UTC(2026, 0, 1 + i, 12, 30, 15, 123)),
      lastUpdateDate: new Date(Date.UTC(2026, 5, 1 + i)),
    }));
    const made = await rowsInserter(users, { skipConflicts: true, returning: 'id' })(db, given);
    expect([...made].sort()).toEqual(given.map((u) => u.id).sort());
    for (const u of given) {
      const [read] = await db.select().from(users).where(eq(users.id, u.id));
      expect(read).toMatchObject(u);
    }
  });

  it('rowsInserter answers the values of the rows made: all of them in one answer row, or only those made when some met a conflict', async () => {
    const { db } = held.database;
    const session = sessionOf(db) as unknown as {
      query: (text: string, ...rest: unknown[]) => Promise<{ rows: unknown[] }>;
    };
    const query = session.query;
    const answers: unknown[][] = [];
    session.query = async function (this: unknown, text: string, ...rest: unknown[]) {
      const r = await query.call(this, text, ...rest);
      if (text.includes('INSERT INTO "companies"')) answers.push(r.rows);
      return r;
    };
    const insert = rowsInserter(companies, { skipConflicts: true, returning: 'id' });
    const first = ['A', 'B', 'C'].map((n) => ({ id: newId(), name: `Made ${n}` }));
    const again = [first[1], { id: newId(), name: 'Made D' }, first[2], { id: newId(), name: 'Made E' }];
    let all: unknown[];
    let some: unknown[];
    let none: unknown[];
    try {
      all = await insert(db, first);
      some = await insert(db, again);
      // Every row met a conflict: none made (an import's line whose login another writer took
      // meanwhile had been reported created, the answer's empty aggregate read as "all made").
      none = await insert(db, [first[0], first[2]]);
    } finally {
      session.query = query;
    }
    expect(all).toEqual(first.map((r) => r.id));
    expect([...some].sort()).toEqual([again[1].id, again[3].id].sort());
    expect(none).toEqual([]);
    // One row back for a whole batch, whatever its size.
    expect(answers.map((rows) => rows.length)).toEqual([1, 1, 1]);
    const read = await db
      .select()
      .from(companies)
      .where(
        inArray(
          companies.id,
          [...first, ...again].map((r) => r.id),
        ),
      );
    expect(read.length).toBe(5);
  });
});
