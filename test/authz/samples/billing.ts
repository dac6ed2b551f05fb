// Sample requests of the billing module, for the authorisation matrix (see ./types.ts).
import { eq } from 'drizzle-orm';
import { catalogOffers, catalogs, offers } from '../../../src/modules/commerce/commerce.tables.ts';
import { newId } from '../../../src/shared/ids.ts';
import type { Ctx, Sample } from './types.ts';

const S = '/api/svc/subscription/v1.0';
/** The world's companies linked to a BP (document 1, create a quotation, rule 3); the others are refused. */
const LINKED_TO_BP = new Set(['vad', 'ir', 'ecVad', 'ecIr', 'orgBp', 'orgIr', 'ecOrgBp', 'ecOrgIr']);

/** A priced nb_users offer of the default catalog (the catalog of every company of the world), made once per application. */
const made = new WeakMap<object, Promise<string>>();
function quotableOffer(ctx: Ctx): Promise<string> {
  if (!made.has(ctx.t)) {
    made.set(
      ctx.t,
      (async () => {
        const id = newId();
        await ctx.t.db.insert(offers).values({
          id,
          name: `Matrix quoted offer ${ctx.n}`,
          canBeSold: true,
          businessModel: 'nb_users',
          prices: [{ currency: 'EUR', amount: '5.00' }],
        });
        const [d] = await ctx.t.db.select({ id: catalogs.id }).from(catalogs).where(eq(catalogs.isDefault, true));
        await ctx.t.db.insert(catalogOffers).values({ catalogId: d.id, offerId: id });
        return id;
      })(),
    );
  }
  return made.get(ctx.t)!;
}

export const billingSamples: Record<string, Sample> = {
  createQuotation: {
    type: 'target',
    kind: 'company',
    fresh: false,
    defaultBody: { offerId: 'a priced offer of the default catalog', maxNumberUsers: 10 },
    request: async (id, ctx) => ({
      method: 'POST',
      url: `${S}/companies/${id}/quotations`,
      payload: { offerId: await quotableOffer(ctx), maxNumberUsers: 10 },
    }),
    // Rule 3: a company neither BP nor linked to one is refused once the caller may quote for it.
    businessRefusal: (p) => (p.company && LINKED_TO_BP.has(p.company) ? undefined : { status: 400, code: 400702 }),
  },
};
