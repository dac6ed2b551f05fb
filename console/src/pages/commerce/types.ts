// The commerce answers' shapes, taken from the generated OpenAPI types (issue 28, point 7: no
// hand-written request or answer shapes). Document 1 declares no named schema for a subscription
// or a quotation, so they are read from the operations' answers.
import type { paths, Schemas } from '../../api/client.ts';

type Json<T> = T extends { content: { 'application/json': infer J } } ? J : never;

type SUBS = '/api/svc/subscription/v1.0/companies/{companyId}/subscriptions';
type QUOTE = '/api/svc/subscription/v1.0/companies/{companyId}/quotations';

export type Subscription = Json<paths[SUBS]['get']['responses'][200]>['data'][number];
export type Quotation = Json<paths[QUOTE]['post']['responses'][200]>['data'];
export type QuotationItem = Quotation['invoiceItems'][number];
export type Offer = Schemas['Offer'];
export type Catalog = Schemas['Catalog'];
