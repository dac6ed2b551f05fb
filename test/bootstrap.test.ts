// Issue 2, points 1 and 7: first-start data. The Default and Terminated companies of document 3
// exist; the first superadmin comes from SUPERADMIN_EMAIL / SUPERADMIN_PASSWORD or gets a
// generated password that works.
import { describe, it } from 'node:test';
import { expect } from './support/expect.ts';
import { eq } from 'drizzle-orm';
import { freshDatabase } from './support/harness.ts';
import { ensureSuperadmin, ensureSystemCompanies, generatePassword } from '../src/bootstrap.ts';
import { companies } from '../src/modules/admin/companies/companies.tables.ts';
import { users } from '../src/modules/admin/users/users.tables.ts';
import { verifyPassword, isStrongPassword } from '../src/shared/passwords.ts';

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
