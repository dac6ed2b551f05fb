// The world of the invoice tests (issue 11, points 3 to 5): a BP DR in France and a BP VAD in
// Germany with their customers (the VAD with a BP IR and its End Customer), monthly subscriptions
// created before the period, a ledger charge before and one after the period's 1st, usage records
// of the voice platform and the conference bridge, and the callers of document 1's roles.
import { eq } from 'drizzle-orm';
import { bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { offers, subscriptions, type OfferPrice } from '../../src/modules/commerce/commerce.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { recordCharges, type ChargeableOffer } from '../../src/modules/billing/charges.service.ts';
import { taxTable } from '../../src/modules/billing/tax.ts';
import { portsOf } from '../../src/ports/ports.ts';
import type { BusinessModel } from '../../src/modules/commerce/offers.schemas.ts';
import type { SubscriptionStatus } from '../../src/modules/commerce/subscriptions.schemas.ts';

export const S = '/api/svc/subscription/v1.0';
export const I = '/api/svc/invoicing/v1.0';
/** The period the tests invoice: the test clock stands on 2026-11-21. */
export const PERIOD = '2026-11';

export interface InvoiceWorld {
  dr: string;
  ecDr1: string;
  ecDr2: string;
  vad: string;
  ir: string;
  ecIr: string;
  ecVad: string;
  lone: string;
  org: string;
  offers: { users: ChargeableOffer; flat: ChargeableOffer; prepaid: ChargeableOffer; usage: ChargeableOffer };
  subs: { drUsers: string; drFlat: string; irUsers: string; ecIrUsers: string; ecVadFlat: string; drNew: string };
  charges: { before: string; after: string };
  drFinance: MadeUser;
  vadFinance: MadeUser;
  drFinanceOrgAdmin: MadeUser;
  drAdmin: MadeUser;
  ecAdmin: MadeUser;
  orgAdmin: MadeUser;
  support: MadeUser;
}

async function makeOffer(
  t: TestApp,
  o: {
    name: string;
    businessModel: BusinessModel;
    prices: OfferPrice[];
    isPrepaid?: boolean;
    prepaidDuration?: number;
  },
): Promise<ChargeableOffer> {
  const row = {
    id: newId(),
    name: o.name,
    businessModel: o.businessModel,
    isDefault: false,
    isPrepaid: o.isPrepaid ?? false,
    prepaidDuration: o.prepaidDuration ?? null,
    prices: o.prices,
    billingProductRatePlanId: `rp-${newId()}`,
    billingProductRatePlanChargeId: `rpc-${newId()}`,
  };
  await t.db.insert(offers).values({ ...row, canBeSold: true });
  return row;
}

async function subscribe(
  t: TestApp,
  companyId: string,
  offerId: string,
  maxNumberUsers: number | null,
  creationDate: string,
  status: SubscriptionStatus = 'active',
): Promise<string> {
  const id = newId();
  await t.db
    .insert(subscriptions)
    .values({ id, companyId, offerId, maxNumberUsers, status, creationDate: new Date(creationDate) });
  return id;
}

export async function buildInvoiceWorld(t: TestApp): Promise<InvoiceWorld> {
  const org = newId();
  await t.db.insert(organisations).values({ id: org, name: `Org ${org}` });
  const dr = await makeCompany(t, {
    name: 'Société Générale des Télécoms',
    isBP: true,
    bpType: 'DR',
    organisationId: org,
  });
  await t.db
    .update(companies)
    .set({ country: 'FRA', currency: 'EUR', street: '1 rue de la Paix', postalCode: '75002', city: 'Paris' })
    .where(eq(companies.id, dr));
  const ecDr1 = await makeCompany(t, { name: 'Zhōngwén 中文 Customer', bpId: dr, organisationId: org });
  const ecDr2 = await makeCompany(t, { name: 'Second Customer', bpId: dr });
  const vad = await makeCompany(t, { name: 'Großhandel VAD', isBP: true, bpType: 'VAD' });
  await t.db.update(companies).set({ country: 'DEU', currency: 'EUR', city: 'Berlin' }).where(eq(companies.id, vad));
  const ir = await makeCompany(t, { name: 'Reseller IR', isBP: true, bpType: 'IR', bpId: vad });
  const ecIr = await makeCompany(t, { name: 'Customer of IR', bpId: ir });
  const ecVad = await makeCompany(t, { name: 'Customer of VAD', bpId: vad });
  const lone = await makeCompany(t, { name: 'Lone company' });

  const o = {
    users: await makeOffer(t, {
      name: 'Business',
      businessModel: 'nb_users',
      prices: [{ currency: 'EUR', amount: '5.00' }],
    }),
    flat: await makeOffer(t, {
      name: 'Conference room',
      businessModel: 'flat_fee',
      prices: [{ currency: 'EUR', amount: '30.00' }],
    }),
    prepaid: await makeOffer(t, {
      name: 'Prepaid',
      businessModel: 'nb_users',
      isPrepaid: true,
      prepaidDuration: 12,
      prices: [{ currency: 'EUR', amount: '4.00' }],
    }),
    usage: await makeOffer(t, {
      name: 'Pay per use',
      businessModel: 'usage',
      prices: [{ currency: 'EUR', amount: '0.01' }],
    }),
  };
  const subs = {
    drUsers: await subscribe(t, ecDr1, o.users.id, 10, '2026-06-15T10:00:00Z'),
    drFlat: await subscribe(t, ecDr2, o.flat.id, null, '2026-09-01T00:00:00Z'),
    irUsers: await subscribe(t, ir, o.users.id, 3, '2026-10-01T00:00:00Z'),
    ecIrUsers: await subscribe(t, ecIr, o.users.id, 7, '2026-08-10T00:00:00Z'),
    ecVadFlat: await subscribe(t, ecVad, o.flat.id, null, '2026-10-31T23:59:59Z'),
    // Created in the period: its first month is a ledger charge, not a recurring item of November.
    drNew: await subscribe(t, ecDr2, o.users.id, 2, '2026-11-05T09:00:00Z'),
  };
  // Not invoiced as recurring items: prepaid (invoiced whole through the ledger), usage, terminated.
  await subscribe(t, ecDr1, o.prepaid.id, 4, '2026-06-15T10:00:00Z');
  await subscribe(t, ecDr1, o.usage.id, null, '2026-06-15T10:00:00Z');
  await subscribe(t, ecDr2, o.users.id, 9, '2026-06-15T10:00:00Z', 'terminated');
  // Every company has its default subscription to a free offer: never invoiced.

  const rates = taxTable(t.deps.config);
  const charge = async (
    subscriptionId: string,
    companyId: string,
    date: string,
    before: number | null,
    after: number,
  ) =>
    (await t.db.transaction(async (tx) =>
      recordCharges(
        tx,
        { id: subscriptionId, companyId, creationDate: new Date('2026-06-15T10:00:00Z') },
        o.users,
        { date, before: before === null ? null : { quantity: before }, after: { quantity: after } },
        rates,
      ),
    ))!.charge!.id;
  const charges = {
    // Issue 11's worked example: raising 10 to 15 users on 2026-06-20 adds 9.17 (tax 1.83).
    before: await charge(subs.drUsers, ecDr1, '2026-06-20', 10, 15),
    // After November's 1st: it waits for December's run.
    after: await charge(subs.drNew, ecDr2, '2026-11-05', null, 2),
  };

  const ports = portsOf(t.deps);
  // October's usage, billed in arrears with November; one call of November and one of September stay out.
  await ports.voice.recordCall({
    companyId: ecDr1,
    userId: null,
    direction: 'outbound',
    callingNumber: '+33100000001',
    calledNumber: '+33100000002',
    startTime: '2026-10-03T10:00:00.000Z',
    durationSeconds: 61,
  });
  await ports.voice.recordCall({
    companyId: ecDr2,
    userId: null,
    direction: 'inbound',
    callingNumber: '+33100000003',
    calledNumber: '+33100000004',
    startTime: '2026-10-31T23:59:59.000Z',
    durationSeconds: 5,
  });
  await ports.voice.recordCall({
    companyId: ecDr2,
    userId: null,
    direction: 'inbound',
    callingNumber: '+33100000005',
    calledNumber: '+33100000006',
    startTime: '2026-11-01T00:00:00.000Z',
    durationSeconds: 7,
  });
  await ports.voice.recordCall({
    companyId: ecDr2,
    userId: null,
    direction: 'inbound',
    callingNumber: '+33100000007',
    calledNumber: '+33100000008',
    startTime: '2026-09-30T23:59:59.000Z',
    durationSeconds: 9,
  });
  await ports.voice.recordCall({
    companyId: ecIr,
    userId: null,
    direction: 'outbound',
    callingNumber: '+49300000001',
    calledNumber: '+49300000002',
    startTime: '2026-10-12T08:00:00.000Z',
    durationSeconds: 120,
  });
  await ports.providers.recordConference({
    companyId: ecDr1,
    conferenceId: 'conf-1',
    participants: 4,
    startTime: '2026-10-20T14:00:00.000Z',
    durationSeconds: 1800,
  });

  const drFinance = await makeUser(t, dr, ['bp_finance']);
  const vadFinance = await makeUser(t, vad, ['bp_finance']);
  // A bp_finance of another BP who is organization_admin of the DR's organisation.
  const other = await makeCompany(t, { name: 'Other DR', isBP: true, bpType: 'DR', organisationId: org });
  const drFinanceOrgAdmin = await makeUser(t, other, ['bp_finance', 'organization_admin']);
  await t.db.update(companies).set({ organisationId: org }).where(eq(companies.id, other));
  return {
    dr,
    ecDr1,
    ecDr2,
    vad,
    ir,
    ecIr,
    ecVad,
    lone,
    org,
    offers: o,
    subs,
    charges,
    drFinance,
    vadFinance,
    drFinanceOrgAdmin,
    drAdmin: await makeUser(t, dr, ['bp_admin']),
    ecAdmin: await makeUser(t, ecDr1, ['company_admin']),
    orgAdmin: await makeUser(t, other, ['organization_admin']),
    support: await makeUser(t, t.defaultCompanyId, ['support']),
  };
}

export function call(t: TestApp) {
  return (
    method: 'GET' | 'POST',
    url: string,
    token = t.superToken,
    payload?: object,
    headers: Record<string, string> = {},
  ) => t.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload ? { payload } : {}) });
}

export async function runPeriod(t: TestApp, period = PERIOD, token = t.superToken) {
  return call(t)('POST', `${S}/billing-runs`, token, { billingPeriod: period });
}
