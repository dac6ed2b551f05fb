// Fixtures of the hosted PBX's tests: a CloudPBX made through the API, and a subscriber seeded
// by direct insert (for the tests of DDIs and devices, which need a subscriber but do not test
// its creation; test/pbx/subscribers.test.ts creates them through the API).
import { newId } from '../../src/shared/ids.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { subscribers } from '../../src/modules/pbx/subscribers.tables.ts';
import { cloudPbxs } from '../../src/modules/pbx/pbx.tables.ts';
import { eq } from 'drizzle-orm';
import { bearer, type TestApp } from '../support/harness.ts';

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
