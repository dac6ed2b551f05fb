// The face of the commerce module (docs/architecture.md, "Modules"): all that other modules use
// of commerce. Their files import this one, never the module's repositories, services or tables
// (a `*.tables.ts` may import commerce.tables.ts for a foreign key): whether a catalog exists, the
// catalog a company sees, the default subscription of a new company, the extras of offers and
// subscriptions, what billing reads of subscriptions, and the hook of a subscription's change.
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { invoicedCompanies, type InvoicedBp } from '../admin/companies/companies.api.ts';
import { licences, offers, subscriptions } from './commerce.tables.ts';
import { fail } from '../../errors/catalogue.ts';
import * as catalogsRepo from './catalogs.repo.ts';
import * as offersRepo from './offers.repo.ts';
import * as subscriptionsRepo from './subscriptions.repo.ts';

/** Document 3, create company rule 7: a user arriving in a company takes a licence of its default subscription. */
export { assignDefaultLicence, assignDefaultLicences, userChangedCompany } from './licences.service.ts';
export { licenceCounters, type LicenceCounters } from './licence-counters.ts';
// The operations another module runs as commands (the bulk import: src/http/run-command.ts).
export { assignUserLicence, unassignUserLicence } from './licences.operations.ts';

/** A company's catalogId must name a catalog (400 otherwise: nothing is stored). */
export async function assertCatalogExists(exec: Executor, catalogId: string): Promise<void> {
  if (!(await catalogsRepo.catalogExists(exec, catalogId))) fail('CATALOG_UNKNOWN', { catalogId });
}

/** The catalog a company sees: its own, else its BP's (or its BP's BP's), else the default one. */
export const catalogOfCompany = (exec: Executor, companyId: string): Promise<string | undefined> =>
  catalogsRepo.catalogOfCompany(exec, companyId);

/** Document 3, create company rule 7: every new company receives a subscription to the default offer. */
export async function addDefaultSubscription(exec: Executor, companyId: string, now: Date): Promise<void> {
  const offerId = (await offersRepo.defaultOfferId(exec)) ?? (await offersRepo.ensureDefaultOffer(exec)).id;
  await subscriptionsRepo.insertDefaultSubscription(exec, companyId, offerId, now);
}

/** The catalog a company sees, as an extra of the authorising statement (create subscription, create a quotation). */
export { COMPANY_CATALOG_EXTRA } from './catalogs.repo.ts';
/** Document 1, create a quotation, rule 4, for a BP already read (the authorising statement's extras). */
export { checkApplicant } from './subscriptions.service.ts';
/** The offer, its catalog membership and a subscription with its offer, as extras of another module's authorising statement. */
export {
  offerExtra,
  offerInCatalogExtra,
  subscriptionWithOfferExtra,
  offerFromExtra,
  subscriptionWithOfferFromExtra,
} from './extras.ts';

/** A subscription bought or changed (billing records its charges): commerce.hooks.ts. */
export { subscriptionChanged, type SubscriptionChange } from './commerce.hooks.ts';
export type { OfferPrice } from './commerce.tables.ts';
export { CompanyIdParams } from './offers.schemas.ts';

/** What pricing reads of an offer (billing's charges and invoices); an offer's row fits. */
export interface ChargeableOffer {
  id: string;
  name: string;
  businessModel: string | null;
  isDefault: boolean;
  isPrepaid: boolean;
  prepaidDuration: number | null;
  prices: (typeof offers.$inferSelect)['prices'];
  billingProductRatePlanId: string | null;
  billingProductRatePlanChargeId: string | null;
}

export interface RecurringRow {
  subscriptionId: string;
  companyId: string;
  companyName: string;
  maxNumberUsers: number | null;
  offer: ChargeableOffer;
}

/**
 * The monthly subscriptions a BP invoices for a period (docs/billing.md, Invoices): those of its
 * customers not terminated, to monthly (not prepaid) per-unit or flat-fee offers, created before
 * the period's 1st (a subscription created later has its first month in the ledger).
 */
export async function recurringSubscriptions(db: Executor, bp: InvoicedBp, periodStart: Date): Promise<RecurringRow[]> {
  const c = invoicedCompanies(bp);
  return db
    .select({
      subscriptionId: subscriptions.id,
      companyId: subscriptions.companyId,
      companyName: c.name,
      maxNumberUsers: subscriptions.maxNumberUsers,
      offer: {
        id: offers.id,
        name: offers.name,
        businessModel: offers.businessModel,
        isDefault: offers.isDefault,
        isPrepaid: offers.isPrepaid,
        prepaidDuration: offers.prepaidDuration,
        prices: offers.prices,
        billingProductRatePlanId: offers.billingProductRatePlanId,
        billingProductRatePlanChargeId: offers.billingProductRatePlanChargeId,
      },
    })
    .from(subscriptions)
    .innerJoin(c, eq(c.id, subscriptions.companyId))
    .innerJoin(offers, eq(offers.id, subscriptions.offerId))
    .where(
      and(
        sql`${subscriptions.status} <> 'terminated'`,
        sql`NOT ${offers.isPrepaid}`,
        inArray(offers.businessModel, ['nb_users', 'nb_services', 'flat_fee']),
        lt(subscriptions.creationDate, periodStart),
      ),
    )
    .orderBy(asc(c.name), asc(c.id), asc(subscriptions.creationDate), asc(subscriptions.id));
}

/**
 * Whether the user holds a licence of an active subscription that is not his company's default
 * one (to the default offer): what a subscriber of a CloudPBX needs (issue 25, point 4).
 */
export async function holdsServiceLicence(exec: Executor, userId: string): Promise<boolean> {
  const rows = await exec
    .select({ one: sql<number>`1` })
    .from(licences)
    .innerJoin(subscriptions, eq(subscriptions.id, licences.subscriptionId))
    .innerJoin(offers, eq(offers.id, subscriptions.offerId))
    .where(
      and(
        eq(licences.userId, userId),
        eq(subscriptions.status, 'active'),
        sql`NOT ${subscriptions.isDefault}`,
        sql`NOT ${offers.isDefault}`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}
export { companyProfiles } from './licences.repo.ts';

/**
 * The subscription a user of the company is given a licence of when the voice import makes him a
 * subscriber of the CloudPBX without his holding one (docs/decisions.md, Bulk import): an active
 * subscription of the company, other than its default one and not to the default offer, with a
 * licence free; the first by offer name. Undefined when there is none.
 */
export async function serviceSubscriptionWithSeat(
  exec: Executor,
  companyId: string,
): Promise<{ id: string; name: string } | undefined> {
  const [row] = await exec
    .select({ id: subscriptions.id, name: offers.name })
    .from(subscriptions)
    .innerJoin(offers, eq(offers.id, subscriptions.offerId))
    .where(
      and(
        eq(subscriptions.companyId, companyId),
        eq(subscriptions.status, 'active'),
        sql`NOT ${subscriptions.isDefault}`,
        sql`NOT ${offers.isDefault}`,
        sql`(${subscriptions.maxNumberUsers} IS NULL OR ${subscriptions.numberAssignedUsers} < ${subscriptions.maxNumberUsers})`,
      ),
    )
    .orderBy(asc(offers.name), asc(subscriptions.id))
    .limit(1);
  return row;
}
