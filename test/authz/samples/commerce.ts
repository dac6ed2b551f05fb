// Sample requests of the commerce module, for the authorisation matrix (see ./types.ts).
import { eq, sql } from 'drizzle-orm';
import {
  catalogOffers,
  catalogs,
  licences,
  offers,
  subscriptions,
} from '../../../src/modules/commerce/commerce.tables.ts';
import { users } from '../../../src/modules/admin/users/users.tables.ts';
import { companies } from '../../../src/modules/admin/companies/companies.tables.ts';
import { addDefaultSubscription } from '../../../src/modules/commerce/commerce.api.ts';
import { newId } from '../../../src/shared/ids.ts';
import type { Ctx, Sample } from './types.ts';

const S = '/api/svc/subscription/v1.0';
const licenceUrl = (userId: string, subscriptionId: string) =>
  `/api/svc/admin/v1.0/users/${userId}/profiles/subscriptions/${subscriptionId}`;
/** The world's BP companies: offer counters are theirs only. */
const BP_KEYS = new Set(['vad', 'ir', 'orgBp', 'orgIr']);

/** An active subscription of the user's company with free licences, for the licence he is given. */
async function subscriptionOfUsersCompany(ctx: Ctx, userId: string): Promise<string> {
  const [u] = await ctx.t.db.select({ companyId: users.companyId }).from(users).where(eq(users.id, userId));
  const offerId = await newOffer(ctx);
  const id = newId();
  await ctx.t.db
    .insert(subscriptions)
    .values({ id, companyId: u.companyId, offerId, status: 'active', maxNumberUsers: null });
  return id;
}

/**
 * The second-resource cases of the matrix place the subscription in and out of the caller's reach
 * while the (fresh) user is one he may act on. A licence goes only to a user of the subscription's
 * company, so the user moves there: the grants on both are the same relations on the same company,
 * hence the answer is the one the subscription's placement calls for. Only within the case's own
 * world: the isolation test passes another tenant's subscription, which must stay out of reach
 * (404) and untouched. True when the user moved.
 */
async function userJoinsSubscriptionsCompany(ctx: Ctx, userId: string, subscriptionId: string): Promise<boolean> {
  const [s] = await ctx.t.db
    .select({ companyId: subscriptions.companyId })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  if (!s || !Object.values(ctx.world.companies).includes(s.companyId)) return false;
  await ctx.t.db.update(users).set({ companyId: s.companyId }).where(eq(users.id, userId));
  return true;
}

/** The user holds a licence of the subscription (row and count), so that unassigning removes one. */
async function holdsLicence(ctx: Ctx, userId: string, subscriptionId: string): Promise<void> {
  const [u] = await ctx.t.db.select({ companyId: users.companyId }).from(users).where(eq(users.id, userId));
  await ctx.t.db.insert(licences).values({ subscriptionId, userId, userCompanyId: u.companyId });
  await ctx.t.db
    .update(subscriptions)
    .set({ numberAssignedUsers: sql`${subscriptions.numberAssignedUsers} + 1` })
    .where(eq(subscriptions.id, subscriptionId));
}

async function newOffer(ctx: Ctx, isDemo = false): Promise<string> {
  const id = newId();
  await ctx.t.db.insert(offers).values({ id, name: `Matrix sample offer ${ctx.n}`, isDemo });
  return id;
}

/** Offers of the default catalog (the catalog of every company of the world, none of which has one), made once per application. */
const ofDefaultCatalog = new WeakMap<object, Map<string, Promise<string>>>();
function offerOfDefaultCatalog(ctx: Ctx, key: string, values: Partial<typeof offers.$inferInsert>): Promise<string> {
  const made = ofDefaultCatalog.get(ctx.t) ?? new Map<string, Promise<string>>();
  ofDefaultCatalog.set(ctx.t, made);
  if (!made.has(key)) {
    made.set(
      key,
      (async () => {
        const id = newId();
        await ctx.t.db.insert(offers).values({ id, name: `Matrix ${key} offer ${ctx.n}`, ...values });
        const [d] = await ctx.t.db.select({ id: catalogs.id }).from(catalogs).where(eq(catalogs.isDefault, true));
        await ctx.t.db.insert(catalogOffers).values({ catalogId: d.id, offerId: id });
        return id;
      })(),
    );
  }
  return made.get(key)!;
}
/** A demo offer: every caller the table allows reads it, the business_admin too (demo offers only). */
const demoOfferOfDefaultCatalog = (ctx: Ctx) => offerOfDefaultCatalog(ctx, 'demo', { isDemo: true });
/** A sellable demo offer: every buyer the table allows may take it, the business_admin too. */
const sellableDemoOffer = (ctx: Ctx) =>
  offerOfDefaultCatalog(ctx, 'sellable demo', { isDemo: true, canBeSold: true, businessModel: 'flat_fee' });

/** A sellable prepaid demo offer: what a BP IR's bp_finance may take (document 1, create rule 7). */
const sellablePrepaidDemoOffer = (ctx: Ctx) =>
  offerOfDefaultCatalog(ctx, 'sellable prepaid demo', {
    isDemo: true,
    canBeSold: true,
    businessModel: 'flat_fee',
    isPrepaid: true,
    prepaidDuration: 12,
  });

/**
 * Document 1, create rule 7 (kept for update and delete): a BP IR's bp_finance acts on his own
 * company's prepaid subscriptions when its VAD set the flag. When the case's caller sits in the
 * company and it is a BP IR (the `satisfy` case of callerCompanyIsBpIr), the VAD sets the flag
 * and the answer is true: the sample then uses prepaid offers, so that the case tests the grant.
 */
async function irBuysForItself(ctx: Ctx, companyId: string): Promise<boolean> {
  const [me] = await ctx.t.db.select({ companyId: users.companyId }).from(users).where(eq(users.id, ctx.caller.id));
  if (me?.companyId !== companyId) return false;
  const [c] = await ctx.t.db
    .select({ isBP: companies.isBP, bpType: companies.bpType })
    .from(companies)
    .where(eq(companies.id, companyId));
  if (!c?.isBP || c.bpType !== 'IR') return false;
  await ctx.t.db.update(companies).set({ adminHasRightToUpdateSubscriptions: true }).where(eq(companies.id, companyId));
  return true;
}

/** The subscription's offer made prepaid (created now: a prepaid one is deleted in its month of creation only) when a BP IR's bp_finance acts on his own company's. */
async function prepaidForIr(ctx: Ctx, id: string, companyId: string): Promise<string> {
  if (!(await irBuysForItself(ctx, companyId))) return companyId;
  const [sub] = await ctx.t.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  await ctx.t.db.update(offers).set({ isPrepaid: true, prepaidDuration: 12 }).where(eq(offers.id, sub.offerId));
  await ctx.t.db.update(subscriptions).set({ creationDate: ctx.t.clock.now() }).where(eq(subscriptions.id, id));
  return companyId;
}

/** How the matrix places a BP IR's bp_finance on his own company (the world's bp_finance sits at the VAD). */
const irOwnCompany = {
  violations: { callerCompanyIsBpIr: { callerLike: 'vad' } },
  satisfy: { callerCompanyIsBpIr: { callerLike: 'ir' } },
} as const;

/**
 * The matrix's subscription target made a demo one (its offer marked demo): the business_admin,
 * whom document 1 lets act on demo subscriptions only, is then allowed like the others.
 */
async function demoSubscription(
  ctx: Ctx,
  id: string,
  patch: Partial<typeof subscriptions.$inferInsert> = {},
): Promise<string> {
  const [sub] = await ctx.t.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  if (sub) {
    await ctx.t.db.update(offers).set({ isDemo: true }).where(eq(offers.id, sub.offerId));
    if (Object.keys(patch).length) await ctx.t.db.update(subscriptions).set(patch).where(eq(subscriptions.id, id));
    return sub.companyId;
  }
  return newId();
}

export const commerceSamples: Record<string, Sample> = {
  createOffer: {
    type: 'targetless',
    request: ({ n }) => ({
      method: 'POST',
      url: `${S}/offers`,
      payload: { name: `Matrix offer ${n}`, prices: [{ currency: 'EUR', amount: '9.90' }] },
    }),
  },
  listAllOffers: {
    type: 'list',
    kind: 'offer',
    request: (offset) => ({ method: 'GET', url: `${S}/offers?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((o: { id: string }) => o.id),
  },
  updateOffer: {
    type: 'target',
    kind: 'offer',
    fresh: true,
    request: (id, { n }) => ({ method: 'PUT', url: `${S}/offers/${id}`, payload: { name: `Renamed offer ${n}` } }),
  },
  deleteOffer: {
    type: 'target',
    kind: 'offer',
    fresh: true,
    request: (id) => ({ method: 'DELETE', url: `${S}/offers/${id}` }),
  },
  createCatalog: {
    type: 'targetless',
    request: ({ n }) => ({ method: 'POST', url: `${S}/catalogs`, payload: { name: `Matrix new catalog ${n}` } }),
  },
  listCatalogs: {
    type: 'list',
    kind: 'catalog',
    request: (offset) => ({ method: 'GET', url: `${S}/catalogs?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((c: { id: string }) => c.id),
  },
  getCatalog: {
    type: 'target',
    kind: 'catalog',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${S}/catalogs/${id}` }),
  },
  updateCatalog: {
    type: 'target',
    kind: 'catalog',
    fresh: true,
    request: (id, { n }) => ({ method: 'PUT', url: `${S}/catalogs/${id}`, payload: { description: `Described ${n}` } }),
  },
  deleteCatalog: {
    type: 'target',
    kind: 'catalog',
    fresh: true,
    request: (id) => ({ method: 'DELETE', url: `${S}/catalogs/${id}` }),
  },
  addOfferToCatalog: {
    type: 'target',
    kind: 'catalog',
    fresh: true,
    defaultBody: { offerId: 'an offer' },
    request: async (id, ctx) => ({
      method: 'POST',
      url: `${S}/catalogs/${id}/offers`,
      payload: { offerId: await newOffer(ctx) },
    }),
  },
  removeOfferFromCatalog: {
    type: 'target',
    kind: 'catalog',
    fresh: true,
    defaultBody: undefined, // no body; the request needs the world
    request: async (id, ctx) => {
      const offerId = await newOffer(ctx);
      await ctx.t.db.insert(catalogOffers).values({ catalogId: id, offerId });
      return { method: 'DELETE', url: `${S}/catalogs/${id}/offers/${offerId}` };
    },
  },
  listCompanyOffers: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${S}/companies/${id}/offers?format=full&limit=5` }),
  },
  getCompanyOffer: {
    type: 'target',
    kind: 'company',
    fresh: false,
    defaultBody: undefined, // no body; the request needs the world
    request: async (id, ctx) => ({
      method: 'GET',
      url: `${S}/companies/${id}/offers/${await demoOfferOfDefaultCatalog(ctx)}`,
    }),
  },
  assignUserLicence: {
    type: 'target',
    kind: 'user',
    fresh: true,
    defaultBody: undefined, // no body; the request needs the world
    request: async (id, ctx) => ({ method: 'POST', url: licenceUrl(id, await subscriptionOfUsersCompany(ctx, id)) }),
    second: {
      subscription: {
        request: async (id, subscriptionId, ctx) => {
          await userJoinsSubscriptionsCompany(ctx, id, subscriptionId);
          return { method: 'POST', url: licenceUrl(id, subscriptionId) };
        },
      },
    },
  },
  unassignUserLicence: {
    type: 'target',
    kind: 'user',
    fresh: true,
    defaultBody: undefined,
    request: async (id, ctx) => {
      const subscriptionId = await subscriptionOfUsersCompany(ctx, id);
      await holdsLicence(ctx, id, subscriptionId);
      return { method: 'DELETE', url: licenceUrl(id, subscriptionId) };
    },
    second: {
      subscription: {
        request: async (id, subscriptionId, ctx) => {
          if (await userJoinsSubscriptionsCompany(ctx, id, subscriptionId)) await holdsLicence(ctx, id, subscriptionId);
          return { method: 'DELETE', url: licenceUrl(id, subscriptionId) };
        },
      },
    },
  },
  listCompanyFeatures: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${S}/companies/${id}/subscriptions/features` }),
  },
  listOfferCounters: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${S}/companies/${id}/offers/counters` }),
    // Document 1: BP companies only; the others are refused once the caller may read them.
    businessRefusal: (p) => (p.company && BP_KEYS.has(p.company) ? undefined : { status: 400, code: 400651 }),
  },
  checkApplicantNumber: {
    type: 'targetless',
    request: ({ n }) => ({ method: 'GET', url: `${S}/companies/check-applicant-number/APP-${n}` }),
  },
  listSubscriptions: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${S}/companies/${id}/subscriptions?format=full&showTerminated=true` }),
  },
  createSubscription: {
    type: 'target',
    kind: 'company',
    fresh: false,
    defaultBody: { offerId: 'a sellable demo offer' },
    ...irOwnCompany,
    request: async (id, ctx) => ({
      method: 'POST',
      url: `${S}/companies/${id}/subscriptions`,
      payload: {
        offerId: (await irBuysForItself(ctx, id)) ? await sellablePrepaidDemoOffer(ctx) : await sellableDemoOffer(ctx),
        purchaseOrderNumber: `PO-${ctx.n}`,
      },
    }),
  },
  getDefaultSubscription: {
    type: 'target',
    kind: 'company',
    fresh: false,
    defaultBody: undefined,
    request: async (id, ctx) => {
      // The world's companies are made by direct inserts: give them the subscription every company has.
      await addDefaultSubscription(ctx.t.db, id, new Date());
      return { method: 'GET', url: `${S}/companies/${id}/subscriptions/default` };
    },
  },
  getSubscription: {
    type: 'target',
    kind: 'subscription',
    fresh: false,
    defaultBody: undefined,
    request: async (id, ctx) => ({
      method: 'GET',
      url: `${S}/companies/${await demoSubscription(ctx, id)}/subscriptions/${id}`,
    }),
  },
  updateSubscription: {
    type: 'target',
    kind: 'subscription',
    fresh: true,
    defaultBody: { maxNumberUsers: 11 },
    ...irOwnCompany,
    request: async (id, ctx) => ({
      method: 'PUT',
      url: `${S}/companies/${await prepaidForIr(ctx, id, await demoSubscription(ctx, id))}/subscriptions/${id}`,
      payload: { maxNumberUsers: 11 },
    }),
  },
  deleteSubscription: {
    type: 'target',
    kind: 'subscription',
    fresh: true,
    defaultBody: undefined,
    ...irOwnCompany,
    request: async (id, ctx) => ({
      method: 'DELETE',
      url: `${S}/companies/${await prepaidForIr(ctx, id, await demoSubscription(ctx, id))}/subscriptions/${id}`,
    }),
  },
  retrySubscriptionSync: {
    type: 'target',
    kind: 'subscription',
    fresh: true,
    defaultBody: undefined,
    // A synchronisation that gave up: what the retry is for.
    request: async (id, ctx) => ({
      method: 'POST',
      url: `${S}/companies/${await demoSubscription(ctx, id, { syncOngoing: true, syncError: 'billing: failed', syncFailedAt: new Date() })}/subscriptions/${id}/retry-sync`,
    }),
  },
};
