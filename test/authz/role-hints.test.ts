// docs/decisions.md, Performance, "Relations of the caller's roles only" (issue 24, point 5): the
// authorising statement computes only the relations of the grants that the roles a caller held on
// his previous request hold. The decision must stay that of his roles now: a role gained or lost
// since his last request counts on the very next one, with the same token.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import type { Role } from '../../src/authz/roles.ts';

const A = '/api/svc/admin/v1.0';
let t: TestApp;
let own: string;
let other: string;
let x: MadeUser;

beforeAll(async () => {
  t = await createTestApp();
  own = await makeCompany(t);
  other = await makeCompany(t);
  x = await makeUser(t, own, ['company_admin']);
});
afterAll(() => t.close());

const rename = async (companyId: string) =>
  (
    await t.inject({
      method: 'PUT',
      url: `${A}/companies/${companyId}`,
      headers: bearer(x.token),
      payload: { name: `Renamed ${Math.random()}` },
    })
  ).statusCode;

const setRoles = (roles: Role[]) => t.db.update(users).set({ roles }).where(eq(users.id, x.id));

describe("issue 24, point 5: the authorising statement computes the relations of the caller's roles", () => {
  it('doc 3, update company: a role lost since the last request refuses the next one (404: a plain user does not read companies), a role gained allows it, with the same token', async () => {
    expect(await rename(own)).toBe(200); // as company_admin: his own company
    expect(await rename(other)).toBe(404);
    await setRoles(['user']);
    expect(await rename(own)).toBe(404); // a plain user does not see companies
    await setRoles(['company_admin', 'user']);
    expect(await rename(own)).toBe(200);
    await setRoles(['user']);
    expect(await rename(own)).toBe(404); // a plain user does not see companies
    // From a plain user to superadmin: any company, at once.
    await setRoles(['superadmin', 'user']);
    expect(await rename(other)).toBe(200);
    expect(await rename(own)).toBe(200);
    await setRoles(['company_admin', 'user']);
    expect(await rename(other)).toBe(404);
    expect(await rename(own)).toBe(200);
  });
});
