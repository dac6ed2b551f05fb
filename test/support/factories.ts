// Test data made through the database directly where no API exists yet (companies, sites), and
// through the API otherwise, so that each test states only what it is about.
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { sites } from '../../src/modules/admin/sites/sites.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { hashPassword } from '../../src/shared/passwords.ts';
import type { Role } from '../../src/authz/roles.ts';
import type { TestApp } from './harness.ts';

export const PASSWORD = 'Passw0rd!';
let cachedHash: Promise<string> | undefined;

export interface CompanyOpts {
  name?: string;
  isBP?: boolean;
  bpType?: 'IR' | 'VAD' | 'DR' | null;
  bpId?: string | null;
  organisationId?: string | null;
  /** Company status of document 3 (default `active`). */
  status?: 'initializing' | 'active' | 'alerting' | 'hold' | 'terminated';
}

export async function makeCompany(t: TestApp, o: CompanyOpts = {}): Promise<string> {
  const id = newId();
  await t.db.insert(companies).values({
    id,
    name: o.name ?? `Company ${id}`,
    isBP: o.isBP ?? false,
    bpType: o.bpType ?? null,
    bpId: o.bpId ?? null,
    organisationId: o.organisationId ?? null,
    ...(o.status ? { status: o.status } : {}),
  });
  return id;
}

export async function makeSite(t: TestApp, companyId: string): Promise<string> {
  const id = newId();
  await t.db.insert(sites).values({ id, name: `Site ${id}`, companyId });
  return id;
}

export interface MadeUser {
  id: string;
  email: string;
  token: string;
}

/** A user with the given roles, signed in. `user` is always among the roles, as the service keeps it. */
export async function makeUser(
  t: TestApp,
  companyId: string,
  roles: Role[] = [],
  opts: { siteId?: string } = {},
): Promise<MadeUser> {
  const id = newId();
  const email = `u${id}@example.com`;
  cachedHash ??= hashPassword(PASSWORD);
  await t.db.insert(users).values({
    id,
    companyId,
    loginEmail: email,
    passwordHash: await cachedHash,
    firstName: 'First',
    // The identifier's random end: its beginning is the creation time, the same for users made together.
    lastName: `Last${id.slice(-6)}`,
    roles: [...new Set<Role>([...roles, 'user'])],
    siteId: opts.siteId ?? null,
  });
  return { id, email, token: await t.login(email, PASSWORD) };
}
