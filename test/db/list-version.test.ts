// Issue 10, point 8 (docs/decisions.md, Performance, striped list versions): the version of
// the companies lists moves with every committed write to companies, subscriptions and offers (so
// a remembered count stays exact: src/db/list-count.ts), and two transactions writing companies at
// once do not wait for each other on it. Runs on PGlite and on PostgreSQL (TEST_DATABASE_URL).
import { describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { databaseForFile } from '../support/harness.ts';
import type { Executor } from '../../src/db/client.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { newId } from '../../src/shared/ids.ts';

const file = databaseForFile();

const version = async (db: Executor) =>
  Number(
    (
      (await db.execute(
        sql`SELECT sum(version)::bigint AS v FROM list_versions WHERE name = 'companies' OR name LIKE 'companies#%'`,
      )) as unknown as { rows: { v: string }[] }
    ).rows[0].v,
  );
const xid = async (db: Executor) =>
  Number(
    ((await db.execute(sql`SELECT pg_current_xact_id()::text AS x`)) as unknown as { rows: { x: string }[] }).rows[0].x,
  );

describe('list version (companies lists)', () => {
  it('moves with every committed write and not with a rolled-back one', async () => {
    const v0 = await version(file.database.db);
    await file.database.db.insert(companies).values({ id: newId(), name: 'list version 1' });
    const v1 = await version(file.database.db);
    expect(v1).toBeGreaterThan(v0);
    await file.database.db
      .transaction(async (tx) => {
        await tx.insert(companies).values({ id: newId(), name: 'never' });
        tx.rollback();
      })
      .catch(() => undefined);
    expect(await version(file.database.db)).toBe(v1);
    await file.database.db.transaction(async (tx) => {
      await tx.insert(companies).values({ id: newId(), name: 'list version 2' });
      await tx.insert(companies).values({ id: newId(), name: 'list version 3' });
    });
    expect(await version(file.database.db)).toBeGreaterThan(v1);
  });

  it('does not make a writer wait for another open writer (a server: the embedded database runs one transaction at a time)', async (t) => {
    if (file.database.kind !== 'server') return t.skip('one transaction at a time on the embedded database');
    let release!: () => void;
    const mayCommit = new Promise<void>((r) => (release = r));
    let wrote!: (x: number) => void;
    const firstXid = new Promise<number>((r) => (wrote = r));
    const first = file.database.db.transaction(async (tx) => {
      await tx.insert(companies).values({ id: newId(), name: 'open writer' });
      wrote(await xid(tx));
      await mayCommit;
    });
    try {
      const x1 = await firstXid;
      // A second writer whose id falls on another stripe (ids 64 apart share one) writes and commits while the first is open.
      let done = false;
      for (let attempt = 0; attempt < 3 && !done; attempt++) {
        await file.database.db.transaction(async (tx) => {
          await tx.execute(sql`SET LOCAL lock_timeout = '3s'`);
          if ((await xid(tx)) % 64 === x1 % 64) return;
          await tx.insert(companies).values({ id: newId(), name: 'second writer' });
          done = true;
        });
      }
      expect(done).toBe(true);
    } finally {
      release();
      await first;
    }
  });
  it('moves when a subscription is created, terminated, revived or removed; not when an update changes nothing a companies list reads (migration 0021)', async () => {
    const db = file.database.db;
    const company = newId();
    const offer = newId();
    const sub = newId();
    await db.insert(companies).values({ id: company, name: 'holder' });
    await db.insert(offers).values({ id: offer, name: 'list version offer' });
    let v = await version(db);
    const moved = async (change: () => Promise<unknown>, expected: boolean) => {
      await change();
      const now = await version(db);
      expect(now > v, 'the version moved').toBe(expected);
      v = now;
    };
    await moved(
      () =>
        db
          .insert(subscriptions)
          .values({ id: sub, companyId: company, offerId: offer, status: 'creating', syncOngoing: true }),
      true,
    );
    // The synchronisation's steps, the licence count, the dates: no companies list reads them.
    await moved(
      () =>
        db
          .update(subscriptions)
          .set({ bsSubscriptionId: 'order-1', billingSubscriptionId: 'billing-1' })
          .where(eq(subscriptions.id, sub)),
      false,
    );
    await moved(
      () =>
        db
          .update(subscriptions)
          .set({ status: 'active', syncOngoing: false, maxNumberUsers: 3, numberAssignedUsers: 1 })
          .where(eq(subscriptions.id, sub)),
      false,
    );
    // Terminated or not: the offer filters of listCompanies leave terminated subscriptions out.
    await moved(() => db.update(subscriptions).set({ status: 'terminated' }).where(eq(subscriptions.id, sub)), true);
    await moved(() => db.update(subscriptions).set({ status: 'active' }).where(eq(subscriptions.id, sub)), true);
    await moved(() => db.delete(subscriptions).where(eq(subscriptions.id, sub)), true);
  });
});
