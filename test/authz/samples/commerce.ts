// Sample requests of the commerce module, for the authorisation matrix (see ./types.ts).
import { eq } from 'drizzle-orm';
import { catalogOffers, catalogs, offers, subscriptions } from '../../../src/modules/commerce/commerce.tables.ts';
import { addDefaultSubscription } from '../../../src/modules/commerce/commerce.service.ts';
import { newId } from '../../../src/shared/ids.ts';
import type { Ctx, Sample } from './types.ts';

const S = '/api/svc/subscription/v1.0';

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
        await ctx.t.db.insert(catalogOffers).values({ catalogId: d!.id, offerId: id });
        return id;
      })(),
    );
  }
  return made.get(key)!;
}
/** A demo offer: every caller the table allows reads it, the business_admin too (demo offers only). */
const demoOfferOfDefaultCatalog = (ctx: Ctx) => offerOfDefaultCatalog(ctx, 'demo', { isDemo: true });
/** A sellable demo offer: every buyer the table allows may take it, the business_admin too. */
const sellableDemoOffer = (ctx: Ctx) => offerOfDefaultCatalog(ctx, 'sellable demo', { isDemo: true, canBeSold: true, businessModel: 'flat_fee' });

/**
 * The matrix's subscription target made a demo one (its offer marked demo): the business_admin,
 * whom document 1 lets act on demo subscriptions only, is then allowed like the others.
 */
async function demoSubscription(ctx: Ctx, id: string, patch: Partial<typeof subscriptions.$inferInsert> = {}): Promise<string> {
  const [sub] = await ctx.t.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  if (sub) {
    await ctx.t.db.update(offers).set({ isDemo: true }).where(eq(offers.id, sub.offerId));
    if (Object.keys(patch).length) await ctx.t.db.update(subscriptions).set(patch).where(eq(subscriptions.id, id));
    return sub.companyId;
  }
  return newId();
}

export const commerceSamples: Record<string, Sample> = {
  createOffer: { type: 'targetless', request: ({ n }) => ({ method: 'POST', url: `${S}/offers`, payload: { name: `Matrix offer ${n}`, prices: [{ currency: 'EUR', amount: '9.90' }] } }) },
  listAllOffers: {
    type: 'list',
    kind: 'offer',
    request: (offset) => ({ method: 'GET', url: `${S}/offers?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((o: { id: string }) => o.id),
  },
  updateOffer: { type: 'target', kind: 'offer', fresh: true, request: (id, { n }) => ({ method: 'PUT', url: `${S}/offers/${id}`, payload: { name: `Renamed offer ${n}` } }) },
  deleteOffer: { type: 'target', kind: 'offer', fresh: true, request: (id) => ({ method: 'DELETE', url: `${S}/offers/${id}` }) },
  createCatalog: { type: 'targetless', request: ({ n }) => ({ method: 'POST', url: `${S}/catalogs`, payload: { name: `Matrix new catalog ${n}` } }) },
  listCatalogs: {
    type: 'list',
    kind: 'catalog',
    request: (offset) => ({ method: 'GET', url: `${S}/catalogs?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((c: { id: string }) => c.id),
  },
  getCatalog: { type: 'target', kind: 'catalog', fresh: false, request: (id) => ({ method: 'GET', url: `${S}/catalogs/${id}` }) },
  updateCatalog: { type: 'target', kind: 'catalog', fresh: true, request: (id, { n }) => ({ method: 'PUT', url: `${S}/catalogs/${id}`, payload: { description: `Described ${n}` } }) },
  deleteCatalog: { type: 'target', kind: 'catalog', fresh: true, request: (id) => ({ method: 'DELETE', url: `${S}/catalogs/${id}` }) },
  addOfferToCatalog: {
    type: 'target',
    kind: 'catalog',
    fresh: true,
    defaultBody: { offerId: 'an offer' },
    request: async (id, ctx) => ({ method: 'POST', url: `${S}/catalogs/${id}/offers`, payload: { offerId: await newOffer(ctx) } }),
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
  listCompanyOffers: { type: 'target', kind: 'company', fresh: false, request: (id) => ({ method: 'GET', url: `${S}/companies/${id}/offers?format=full&limit=5` }) },
  getCompanyOffer: {
    type: 'target',
    kind: 'company',
    fresh: false,
    defaultBody: undefined, // no body; the request needs the world
    request: async (id, ctx) => ({ method: 'GET', url: `${S}/companies/${id}/offers/${await demoOfferOfDefaultCatalog(ctx)}` }),
  },
  checkApplicantNumber: { type: 'targetless', request: ({ n }) => ({ method: 'GET', url: `${S}/companies/check-applicant-number/APP-${n}` }) },
  listSubscriptions: { type: 'target', kind: 'company', fresh: false, request: (id) => ({ method: 'GET', url: `${S}/companies/${id}/subscriptions?format=full&showTerminated=true` }) },
  createSubscription: {
    type: 'target',
    kind: 'company',
    fresh: false,
    defaultBody: { offerId: 'a sellable demo offer' },
    request: async (id, ctx) => ({ method: 'POST', url: `${S}/companies/${id}/subscriptions`, payload: { offerId: await sellableDemoOffer(ctx), purchaseOrderNumber: `PO-${ctx.n}` } }),
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
    request: async (id, ctx) => ({ method: 'GET', url: `${S}/companies/${await demoSubscription(ctx, id)}/subscriptions/${id}` }),
  },
  updateSubscription: {
    type: 'target',
    kind: 'subscription',
    fresh: true,
    defaultBody: { maxNumberUsers: 11 },
    request: async (id, ctx) => ({ method: 'PUT', url: `${S}/companies/${await demoSubscription(ctx, id)}/subscriptions/${id}`, payload: { maxNumberUsers: 11 } }),
  },
  deleteSubscription: {
    type: 'target',
    kind: 'subscription',
    fresh: true,
    defaultBody: undefined,
    request: async (id, ctx) => ({ method: 'DELETE', url: `${S}/companies/${await demoSubscription(ctx, id)}/subscriptions/${id}` }),
  },
  retrySubscriptionSync: {
    type: 'target',
    kind: 'subscription',
    fresh: true,
    defaultBody: undefined,
    // A synchronisation that gave up: what the retry is for.
    request: async (id, ctx) => ({ method: 'POST', url: `${S}/companies/${await demoSubscription(ctx, id, { syncOngoing: true, syncError: 'billing: failed', syncFailedAt: new Date() })}/subscriptions/${id}/retry-sync` }),
  },
};
