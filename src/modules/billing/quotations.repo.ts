// What a quotation reads, as extras of its authorising statement (docs/decisions.md, Quotations: round trips
// and the organisation's BPs: a quotation answers in as few round trips as possible): the offer named by the
// body and whether the company's catalog holds it, the subscription named by the body with its offer, and the
// company's BPs (who is invoiced, in which currency and country; whose applicant number counts).
// The session, the caller, the company and the decision come with them: one statement.
import type { SQL } from 'drizzle-orm';
import * as commerce from '../commerce/commerce.api.ts';
import { BPS_EXTRA, bpsFromExtra, type BpFacts } from '../admin/companies/companies.api.ts';
import { textOrNull } from '../../shared/json-values.ts';

/** The body fields the extras read (bound as parameters of the statement). */
export const QUOTATION_INPUTS = {
  offerId: { from: 'body', field: 'offerId' },
  subscriptionId: { from: 'body', field: 'subscriptionId' },
} as const;

export const QUOTATION_EXTRAS: Record<string, SQL> = {
  catalogId: commerce.COMPANY_CATALOG_EXTRA,
  offer: commerce.offerExtra('offerId'),
  inCatalog: commerce.offerInCatalogExtra('offerId'),
  subscription: commerce.subscriptionWithOfferExtra('subscriptionId'),
  bps: BPS_EXTRA,
};

export type QuotedOffer = NonNullable<ReturnType<typeof commerce.offerFromExtra>>;
export type QuotedSubscription = NonNullable<ReturnType<typeof commerce.subscriptionWithOfferFromExtra>>;

/** What the statement read beside the company, as the service uses it. */
export interface QuotationReads {
  catalogId: string | null;
  offer: QuotedOffer | undefined;
  inCatalog: boolean;
  subscription: QuotedSubscription | undefined;
  parent: BpFacts | null;
  grandParent: BpFacts | null;
}

export function quotationReads(extras: Record<string, unknown>): QuotationReads {
  const bps = bpsFromExtra(extras.bps);
  return {
    catalogId: textOrNull(extras.catalogId),
    offer: commerce.offerFromExtra(extras.offer),
    inCatalog: extras.inCatalog === true,
    subscription: commerce.subscriptionWithOfferFromExtra(extras.subscription),
    parent: bps.parent,
    grandParent: bps.grandParent,
  };
}
