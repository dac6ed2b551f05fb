// Issue 2, points 1 and 7: first-start data. The Default and Terminated companies of document 3
// exist; the first superadmin comes from SUPERADMIN_EMAIL / SUPERADMIN_PASSWORD or gets a
// generated password that works.
import { describe, it } from 'node:test';
import { expect } from './support/expect.ts';
import { eq, sql } from 'drizzle-orm';
import { freshDatabase } from './support/harness.ts';
import { ensureSuperadmin, ensureSystemCompanies, generatePassword } from '../src/bootstrap.ts';
import { companies } from '../src/modules/admin/companies/companies.tables.ts';
import { users } from '../src/modules/admin/users/users.tables.ts';
import { verifyPassword, isStrongPassword } from '../src/shared/passwords.ts';
import { rowsOf } from '../src/db/raw.ts';

describe('first start', () => {
  it('creates the Default and Terminated companies once, and a superadmin with a generated password', async () => {
    const database = await freshDatabase();
    await database.migrate();
    await ensureSystemCompanies(database.db);
    await ensureSystemCompanies(database.db);
    const rows = await database.db.select({ name: companies.name, role: companies.systemRole }).from(companies);
    expect(rows.map((r) => r.name).sort()).toEqual(['Default', 'Terminated']);

    const first = await ensureSuperadmin(database.db, 'first@example.com', undefined);
    expect(first?.generatedPassword).toBeTruthy();
    expect(isStrongPassword(first!.generatedPassword!)).toBe(true);
    const [u] = await database.db.select().from(users).where(eq(users.loginEmail, 'first@example.com'));
    expect(u.roles).toContain('superadmin');
    expect(await verifyPassword(u.passwordHash, first!.generatedPassword!)).toBe(true);
    // A second start does not create another one nor print a password again.
    expect(await ensureSuperadmin(database.db, 'first@example.com', undefined)).toBeUndefined();
    await database.close();
  });

  it('a restart finds the first-start data as it is and writes nothing (no list version moves); a missing piece is put back', async () => {
    const database = await freshDatabase();
    await database.migrate();
    await ensureSystemCompanies(database.db);
    const versions = async () =>
      rowsOf(await database.db.execute(sql`SELECT name, version FROM list_versions ORDER BY name`));
    const before = await versions();
    // Each seed reads first: an insert that conflicts would still run its table's statement
    // triggers (moving list versions) and commit, at every start.
    await ensureSystemCompanies(database.db);
    expect(await versions()).toEqual(before);
    // What a start finds missing it makes again: the default catalog's default offer, the console's definition.
    await database.db.execute(sql`DELETE FROM catalog_offers`);
    await database.db.execute(sql`UPDATE applications SET name = 'Changed' WHERE id = 'console'`);
    await ensureSystemCompanies(database.db);
    expect(rowsOf(await database.db.execute(sql`SELECT count(*)::int AS n FROM catalog_offers`))).toEqual([{ n: 1 }]);
    expect(rowsOf(await database.db.execute(sql`SELECT name FROM applications WHERE id = 'console'`))).toEqual([
      { name: 'Console' },
    ]);
    await database.close();
  });

  it('migrations apply twice without harm (every start runs them)', async () => {
    const database = await freshDatabase();
    await database.migrate();
    await database.migrate();
    await database.close();
  });

  it('generated passwords meet the password policy', () => {
    for (let i = 0; i < 50; i++) expect(isStrongPassword(generatePassword())).toBe(true);
  });
});
