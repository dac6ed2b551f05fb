// The world of the subscription tests (issue 10, points 2, 3 and 5): a VAD with the resell model
// and a known applicant number, its BP IR and their End Customers, a DR with the referral model,
// a catalog of offers of every kind on the VAD, and the callers of document 1's rules.
import { eq, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import type { Config } from '../../src/config.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { outbox } from '../../src/events/outbox.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { newId } from '../../src/shared/ids.ts';

export const S = '/api/svc/subscription/v1.0';

export interface World {
  vad: string;
  ir: string;
  ecVad: string;
  ecIr: string;
  dr: string;
  ecDr: string;
  vadUnknown: string;
  ecUnknown: string;
  offers: {
    nbUsers: string;
    prepaid: string;
    demo: string;
    unsold: string;
    outside: string;
    media: string;
    flat: string;
    free: string;
  };
  vadFinance: MadeUser;
  vadAdmin: MadeUser;
  irFinance: MadeUser;
  drFinance: MadeUser;
  unknownFinance: MadeUser;
  businessAdmin: MadeUser;
  ecVadAdmin: MadeUser;
  ecIrAdmin: MadeUser;
}

export function caller(t: TestApp) {
  return async (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    token = t.superToken,
    headers: Record<string, string> = {},
  ) => t.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload ? { payload } : {}) });
}

/**
 * An application with its background (the synchronisation jobs run), retrying a failed
 * synchronisation once after a second, and the world of these tests built in it.
 */
export async function startWorld(config: Partial<Config> = {}) {
  const t = await createTestApp({
    background: true,
    config: { subscriptionSyncRetryLimit: 1, subscriptionSyncRetryDelaySeconds: 1, ...config },
  });
  return { t, call: caller(t), w: await buildWorld(t) };
}

export async function buildWorld(t: TestApp): Promise<World> {
  const call = caller(t);
  const offer = async (body: object) => {
    const res = await call('POST', `${S}/offers`, { name: `Offer ${newId()}`, canBeSold: true, ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  const offers = {
    nbUsers: await offer({
      businessModel: 'nb_users',
      billingProductRatePlanId: `rp-${newId()}`,
      prices: [{ currency: 'EUR', amount: '10.00' }],
      profileId: 'p-business',
      profileName: 'Business',
    }),
    prepaid: await offer({
      businessModel: 'nb_users',
      isPrepaid: true,
      prepaidDuration: 12,
      billingProductRatePlanId: `rp-${newId()}`,
    }),
    demo: await offer({ businessModel: 'nb_users', isDemo: true }),
    unsold: await offer({ businessModel: 'flat_fee', canBeSold: false }),
    outside: await offer({ businessModel: 'flat_fee' }),
    media: await offer({
      businessModel: 'flat_fee',
      provisioningNeeded: [{ providerType: 'media', mediaType: 'webrtc' }],
    }),
    flat: await offer({ businessModel: 'flat_fee', billingProductRatePlanId: `rp-${newId()}` }),
    free: await offer({ businessModel: 'nb_services' }),
  };
  const { outside, ...inCatalog } = offers;
  void outside;
  const catalog = (
    await call('POST', `${S}/catalogs`, { name: `Catalog ${newId()}`, offerIds: Object.values(inCatalog) })
  ).json().data.id as string;
  const vad = await makeCompany(t, { isBP: true, bpType: 'VAD' });
  await t.db
    .update(companies)
    .set({ catalogId: catalog, bpBusinessModel: 'resell', bpApplicantNumber: `APP-${vad}` })
    .where(eq(companies.id, vad));
  const ir = await makeCompany(t, { isBP: true, bpType: 'IR', bpId: vad });
  const ecVad = await makeCompany(t, { bpId: vad });
  const ecIr = await makeCompany(t, { bpId: ir });
  const dr = await makeCompany(t, { isBP: true, bpType: 'DR' });
  await t.db.update(companies).set({ catalogId: catalog, bpBusinessModel: 'referral' }).where(eq(companies.id, dr));
  const ecDr = await makeCompany(t, { bpId: dr });
  const vadUnknown = await makeCompany(t, { isBP: true, bpType: 'VAD' });
  // A resell BP whose applicant number nobody set: the order system cannot know it.
  await t.db
    .update(companies)
    .set({ catalogId: catalog, bpBusinessModel: 'resell' })
    .where(eq(companies.id, vadUnknown));
  const ecUnknown = await makeCompany(t, { bpId: vadUnknown });
  return {
    vad,
    ir,
    ecVad,
    ecIr,
    dr,
    ecDr,
    vadUnknown,
    ecUnknown,
    offers,
    vadFinance: await makeUser(t, vad, ['bp_finance']),
    vadAdmin: await makeUser(t, vad, ['bp_admin']),
    irFinance: await makeUser(t, ir, ['bp_finance']),
    drFinance: await makeUser(t, dr, ['bp_finance']),
    unknownFinance: await makeUser(t, vadUnknown, ['bp_finance']),
    businessAdmin: await makeUser(t, t.defaultCompanyId, ['business_admin']),
    ecVadAdmin: await makeUser(t, ecVad, ['company_admin']),
    ecIrAdmin: await makeUser(t, ecIr, ['company_admin']),
  };
}

/** Polls the subscription until `until` holds (the job runs in the background), or fails after 20 s. */
export async function waitFor(
  t: TestApp,
  companyId: string,
  id: string,
  until: (s: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  const call = caller(t);
  const end = Date.now() + 20_000;
  for (;;) {
    const s = (await call('GET', `${S}/companies/${companyId}/subscriptions/${id}`)).json().data;
    if (until(s)) return s;
    if (Date.now() > end) throw new Error(`subscription ${id} never reached the state: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The companysubscription events written for a subscription: [recipient user id, action, status] per row. */
export async function eventsOf(
  t: TestApp,
  subscriptionId: string,
): Promise<{ userId: string; action: string; xml: string }[]> {
  const rows = await t.db
    .select({ recipient: outbox.recipient, stanza: outbox.stanza, userId: users.id })
    .from(outbox)
    .innerJoin(users, eq(users.jidIm, outbox.recipient))
    .where(
      sql`${outbox.kind} = 'companysubscription' AND ${outbox.stanza} LIKE ${`%subscriptionId="${subscriptionId}"%`}`,
    )
    .orderBy(outbox.seq);
  return rows.map((r) => ({ userId: r.userId, action: /action="(\w+)"/.exec(r.stanza)![1], xml: r.stanza }));
}
