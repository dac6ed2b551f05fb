// Fixtures of the hosted PBX's tests: a CloudPBX made through the API, and a subscriber seeded
// by direct insert (for the tests of DDIs and devices, which need a subscriber but do not test
// its creation; test/pbx/subscribers.test.ts creates them through the API).
import { newId } from '../../src/shared/ids.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { subscribers } from '../../src/modules/pbx/subscribers.tables.ts';
import { cloudPbxs } from '../../src/modules/pbx/pbx.tables.ts';
import { eq } from 'drizzle-orm';
import { bearer, type TestApp } from '../support/harness.ts';
import { makeUser, type MadeUser } from '../support/factories.ts';
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
