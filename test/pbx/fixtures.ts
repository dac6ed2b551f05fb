// Fixtures of the hosted PBX's tests: a CloudPBX made through the API, and a subscriber seeded
// by direct insert (for the tests of DDIs and devices, which need a subscriber but do not test
// its creation; test/pbx/subscribers.test.ts creates them through the API).
import { newId } from '../../src/shared/ids.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { subscribers } from '../../src/modules/pbx/subscribers.tables.ts';
import { cloudPbxs } from '../../src/modules/pbx/pbx.tables.ts';
import { eq } from 'drizzle-orm';
import { bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';

export const V = '/api/svc/vcpprovisioning/v1.0';
export const PBXS = `${V}/cloudpbxs`;

/** A CloudPBX of the company (superadmin), numbering prefix 2 with 3 digits unless told. */
export async function createPbx(
  t: TestApp,
  companyId: string,
  body: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const res = await t.inject({
    method: 'POST',
    url: PBXS,
    headers: bearer(t.superToken),
    payload: { companyId, numberingPrefixes: ['2'], numberingDigits: 3, ...body },
  });
  if (res.statusCode !== 201) throw new Error(`createCloudPbx: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** A subscriber of the CloudPBX for the user, seeded as the API would make it (and on the voice platform). */
export async function seedSubscriber(
  t: TestApp,
  cloudPbxId: string,
  userId: string,
  shortNumber: string,
): Promise<string> {
  const [pbx] = await t.db.select().from(cloudPbxs).where(eq(cloudPbxs.id, cloudPbxId));
  const vcp = await portsOf(t.deps).voice.createSubscriber({ tenantId: pbx.vcpTenantId, userId, shortNumber });
  const id = newId();
  await t.db.insert(subscribers).values({
    id,
    cloudPbxId,
    userId,
    shortNumber,
    shortNumberValue: Number(shortNumber),
    vcpSubscriberId: vcp.id,
  });
  return id;
}

/** A subscription of the company (active unless told) to an offer of its own, not the default one. */
export async function ownSubscription(
  t: TestApp,
  companyId: string,
  o: { status?: 'active' | 'creating' } = {},
): Promise<string> {
  const offerId = newId();
  await t.db.insert(offers).values({ id: offerId, name: `Offer ${offerId}`, businessModel: 'nb_users' });
  const id = newId();
  await t.db
    .insert(subscriptions)
    .values({ id, companyId, offerId, status: o.status ?? 'active', maxNumberUsers: 100 });
  return id;
}

/**
 * A user of the company holding a licence of an active subscription other than the default
 * offer's (assigned through the API): what a subscriber needs (issue 25, point 4).
 */
export async function licensedUser(t: TestApp, companyId: string): Promise<MadeUser> {
  const u = await makeUser(t, companyId);
  const sub = await ownSubscription(t, companyId);
  const res = await t.inject({
    method: 'POST',
    url: `/api/svc/admin/v1.0/users/${u.id}/profiles/subscriptions/${sub}`,
    headers: bearer(t.superToken),
  });
  if (res.statusCode !== 201) throw new Error(`assignUserLicence: ${res.statusCode} ${res.body}`);
  return u;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** A request as a caller sends it: the token as bearer, the payload as JSON when given. */
export function send(t: TestApp, method: Method, url: string, token: string, payload?: unknown) {
  return t.inject({
    method,
    url,
    headers: bearer(token),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

/** The companies and callers of a test of a CloudPBX's objects (document 2's roles, in and out of scope). */
export interface PbxWorld {
  bp: string;
  ec1: string;
  otherEc: string;
  site1: string;
  bpAdmin: MadeUser;
  ec1Admin: MadeUser;
  siteAdmin: MadeUser;
  support: MadeUser;
  otherAdmin: MadeUser;
}

/** A DR BP, its End Customer `ec1` with a site, another End Customer, and one caller of each role. */
export async function pbxWorld(t: TestApp, label: string): Promise<PbxWorld> {
  const bp = await makeCompany(t, { name: `${label} BP`, isBP: true, bpType: 'DR' });
  const ec1 = await makeCompany(t, { name: `${label} EC`, bpId: bp });
  const otherEc = await makeCompany(t, { name: `${label} other EC` });
  const site1 = await makeSite(t, ec1);
  return {
    bp,
    ec1,
    otherEc,
    site1,
    bpAdmin: await makeUser(t, bp, ['bp_admin']),
    ec1Admin: await makeUser(t, ec1, ['company_admin']),
    siteAdmin: await makeUser(t, ec1, ['site_admin'], { siteId: site1 }),
    support: await makeUser(t, bp, ['support']),
    otherAdmin: await makeUser(t, otherEc, ['company_admin']),
  };
}
