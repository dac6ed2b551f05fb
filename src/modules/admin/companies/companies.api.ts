// The face of the companies module (docs/architecture.md, "Modules"): all that other modules use
// of companies, facts about a company and the SQL that reads or changes the companies table for
// them. Their files import this one, never the module's repository, service or tables (a
// `*.tables.ts` may import companies.tables.ts for a foreign key); the SQL here is the only SQL
// outside this module that names the companies table.
import { and, asc, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias, QueryBuilder, type AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../../db/client.ts';
import { rowsOf } from '../../../db/raw.ts';
import type { Paging } from '../../../http/paging.ts';
import { companies } from './companies.tables.ts';
import { BP_BUSINESS_MODELS, type BpBusinessModel } from './companies.schemas.ts';
import { field, isOneOf, isRecord, textOr, textOrNull } from '../../../shared/json-values.ts';

export { companyCommerce, type CompanyCommerce, type OfferFilters, type SubscriptionView } from './companies.hooks.ts';
export { readCompany, companySubscriptions } from './companies.service.ts';
export { Company, COMPANY_FORMATS } from './companies.schemas.ts';
export type { CompanyRow } from './companies.repo.ts';

// ---------------------------------------------------------------------------------------------
// Facts about a company.

/** What other modules' rules read of a company (registration, systems, subscriptions, roles). */
export type CompanyFacts = Pick<
  typeof companies.$inferSelect,
  | 'id'
  | 'name'
  | 'status'
  | 'systemRole'
  | 'isBP'
  | 'bpType'
  | 'bpId'
  | 'bpBusinessModel'
  | 'bpApplicantNumber'
  | 'currency'
  | 'country'
  | 'isCentrex'
  | 'companyCallNumber'
  | 'userSelfRegisterEnabled'
  | 'userSelfRegisterAllowedDomains'
  | 'adminHasRightToUpdateSubscriptions'
  | 'adminAllowedUpdateSubscriptionsOps'
>;

const FACTS = {
  id: companies.id,
  name: companies.name,
  status: companies.status,
  systemRole: companies.systemRole,
  isBP: companies.isBP,
  bpType: companies.bpType,
  bpId: companies.bpId,
  bpBusinessModel: companies.bpBusinessModel,
  bpApplicantNumber: companies.bpApplicantNumber,
  currency: companies.currency,
  country: companies.country,
  isCentrex: companies.isCentrex,
  companyCallNumber: companies.companyCallNumber,
  userSelfRegisterEnabled: companies.userSelfRegisterEnabled,
  userSelfRegisterAllowedDomains: companies.userSelfRegisterAllowedDomains,
  adminHasRightToUpdateSubscriptions: companies.adminHasRightToUpdateSubscriptions,
  adminAllowedUpdateSubscriptionsOps: companies.adminAllowedUpdateSubscriptionsOps,
};

/** The facts of the company of that id; undefined when there is none (or no id). */
export async function companyFacts(exec: Executor, id: string | null | undefined): Promise<CompanyFacts | undefined> {
  if (!id) return undefined;
  const [row] = await exec.select(FACTS).from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}

/**
 * Document 3's recording fields of a company (allowCloudPbxRecording, cloudPbxRecordingInboundOnly),
 * which the hosted PBX's recordings obey (issue 26, point 5); undefined when there is no such company.
 */
export async function companyRecordingRules(
  exec: Executor,
  id: string,
): Promise<{ allowCloudPbxRecording: boolean; cloudPbxRecordingInboundOnly: boolean } | undefined> {
  const [row] = await exec
    .select({
      allowCloudPbxRecording: companies.allowCloudPbxRecording,
      cloudPbxRecordingInboundOnly: companies.cloudPbxRecordingInboundOnly,
    })
    .from(companies)
    .where(eq(companies.id, id))
    .limit(1);
  return row;
}

/** The BP type of a company that is a BP (null otherwise, or without an id). */
export async function bpTypeOf(exec: Executor, id: string | null): Promise<string | null> {
  if (!id) return null;
  const [row] = await exec
    .select({ bpType: companies.bpType, isBP: companies.isBP })
    .from(companies)
    .where(eq(companies.id, id))
    .limit(1);
  return row?.isBP ? row.bpType : null;
}

export async function companyExists(exec: Executor, companyId: string): Promise<boolean> {
  const [company] = await exec.select({ id: companies.id }).from(companies).where(eq(companies.id, companyId));
  return !!company;
}

export async function companyName(exec: Executor, id: string): Promise<string | undefined> {
  const [row] = await exec.select({ name: companies.name }).from(companies).where(eq(companies.id, id));
  return row?.name;
}

/** Serialises work on one company (a row lock on it, to the end of the transaction). */
export async function lockCompany(tx: Executor, id: string): Promise<void> {
  await tx.execute(sql`SELECT id FROM companies WHERE id = ${id} FOR UPDATE`);
}

// ---------------------------------------------------------------------------------------------
// SQL over a company, for other modules' statements (one round trip).

/**
 * Runs expressions over the company row `t` of that id, one column each (undefined when there is
 * no such company): what an extra of an authorising statement reads, outside one.
 */
export async function overCompany<T extends Record<string, unknown>>(
  exec: Executor,
  companyId: string,
  exprs: { [K in keyof T]: SQL },
): Promise<T | undefined> {
  const cols = sql.join(
    Object.entries(exprs).map(([name, e]) => sql`${e} AS ${sql.identifier(name)}`),
    sql`, `,
  );
  return rowsOf<T>(await exec.execute(sql`SELECT ${cols} FROM companies t WHERE t.id = ${companyId}`))[0];
}

/** The BP type of the company whose id is the expression (NULL when none). */
export const bpTypeSql = (companyId: SQL | AnyPgColumn): SQL =>
  sql`(SELECT c.bp_type FROM companies c WHERE c.id = ${companyId})`;

/** The BP of the company whose id is the expression (NULL when none). */
export const bpIdSql = (companyId: SQL | AnyPgColumn): SQL =>
  sql`(SELECT c.bp_id FROM companies c WHERE c.id = ${companyId})`;

/** The ids of every company, as a relation `(id)`. */
export const ALL_COMPANY_IDS = sql`(SELECT id FROM companies)`;

/** The id, name, BP and currency of the company row `t`, as JSON. */
export const COMPANY_SUMMARY = sql`json_build_object('id', t.id, 'name', t.name, 'bpId', t.bp_id, 'currency', t.currency)`;

/**
 * Expressions over the row `t` of the company whose id is the expression, as one JSON object of
 * those names (NULL when there is no such company).
 */
export function companyJson(companyId: SQL | AnyPgColumn, exprs: Record<string, SQL>): SQL {
  const pairs = Object.entries(exprs).map(([name, e]) => sql`${sql.raw(`'${name}'`)}, ${e}`);
  return sql`(SELECT json_build_object(${sql.join(pairs, sql`, `)}) FROM companies t WHERE t.id = ${companyId})`;
}

/** Over the company row `t`: the catalog of its BP, else of its BP's BP (NULL when neither has one). */
export const BP_CATALOG = sql`(SELECT COALESCE(bp.catalog_id, vad.catalog_id) FROM companies bp LEFT JOIN companies vad ON vad.id = bp.bp_id WHERE bp.id = t.bp_id)`;

/** How many companies are assigned the catalog. */
export async function countCompaniesWithCatalog(exec: Executor, catalogId: string): Promise<number> {
  const [r] = await exec
    .select({ n: sql<number>`count(*)::int` })
    .from(companies)
    .where(eq(companies.catalogId, catalogId));
  return r?.n ?? 0;
}

/**
 * The companies a BP sells to, as a relation `(id, mine)`: the BP itself (mine), its customers
 * and, for a VAD, its BP IR companies' customers (the offer counters of document 1).
 */
export const bpScope = (bp: { id: string; bpType: string | null }): SQL =>
  sql`(SELECT c.id, c.id = ${bp.id} AS mine FROM companies c
      WHERE c.id = ${bp.id} OR c.bp_id = ${bp.id}
        OR (${bp.bpType}::text = 'VAD' AND c.bp_id IN (SELECT ir.id FROM companies ir WHERE ir.bp_id = ${bp.id} AND ir.bp_type = 'IR')))`;

// ---------------------------------------------------------------------------------------------
// The BPs above a company: who orders, who is invoiced (billing, commerce).

/** A company as invoicing reads it: whether and which BP it is, its currency and its country (tax). */
export interface BillingCompany {
  id: string;
  isBP: boolean;
  bpType: string | null;
  bpId: string | null;
  currency: string | null;
  country: string;
}

/** A BP above a company as the BPS_EXTRA gives it: who is invoiced, and the applicant check's facts (document 1, create a quotation, rule 4). */
export interface BpFacts extends BillingCompany {
  name: string;
  bpBusinessModel: BpBusinessModel | null;
  bpApplicantNumber: string | null;
}

const BP_FACTS = (a: string) =>
  `json_build_object('id', ${a}.id, 'name', ${a}.name, 'isBP', ${a}.is_bp, 'bpType', ${a}.bp_type, 'bpId', ${a}.bp_id, 'currency', ${a}.currency, 'country', ${a}.country, 'bpBusinessModel', ${a}.bp_business_model, 'bpApplicantNumber', ${a}.bp_applicant_number)`;

/**
 * The BP of the company row `t` and that BP's BP ({parent, grandParent}, NULL when `t` has no
 * BP), as an extra of the authorising statement: createQuotation reads them beside its target;
 * commerce's createSubscription and its synchronisation read them the same way.
 */
export const BPS_EXTRA =
  sql.raw(`(SELECT json_build_object('parent', ${BP_FACTS('p')}, 'grandParent', (SELECT ${BP_FACTS('g')} FROM companies g WHERE g.id = p.bp_id))
  FROM companies p WHERE p.id = t.bp_id)`);

/** The BPS_EXTRA value: the company's BP and the BP above it (null when none). */
export function bpsFromExtra(v: unknown): { parent: BpFacts | null; grandParent: BpFacts | null } {
  return { parent: bpFacts(field(v, 'parent')), grandParent: bpFacts(field(v, 'grandParent')) };
}

/** One BP_FACTS object, read field by field (null when absent). */
function bpFacts(v: unknown): BpFacts | null {
  if (!isRecord(v) || typeof v.id !== 'string') return null;
  return {
    id: v.id,
    name: textOr(v.name),
    isBP: v.isBP === true,
    bpType: textOrNull(v.bpType),
    bpId: textOrNull(v.bpId),
    currency: textOrNull(v.currency),
    country: textOr(v.country),
    bpBusinessModel: isOneOf(BP_BUSINESS_MODELS, v.bpBusinessModel) ? v.bpBusinessModel : null,
    bpApplicantNumber: textOrNull(v.bpApplicantNumber),
  };
}

/** The invoicing facts of a company row or of an alias of the table. */
const billingCols = (t: typeof companies | ReturnType<typeof alias<typeof companies, string>>) => ({
  id: t.id,
  isBP: t.isBP,
  bpType: t.bpType,
  bpId: t.bpId,
  currency: t.currency,
  country: t.country,
});

/** A company, its BP and its BP's BP, in one statement (who is invoiced: billing's charges.service.ts). */
export async function companyWithBps(
  exec: Executor,
  id: string,
): Promise<{ company: BillingCompany; parent: BillingCompany | null; grandParent: BillingCompany | null } | undefined> {
  const parent = alias(companies, 'parent');
  const grand = alias(companies, 'grand');
  const [row] = await exec
    .select({ company: billingCols(companies), parent: billingCols(parent), grandParent: billingCols(grand) })
    .from(companies)
    .leftJoin(parent, eq(parent.id, companies.bpId))
    .leftJoin(grand, eq(grand.id, parent.bpId))
    .where(eq(companies.id, id));
  return row;
}

// ---------------------------------------------------------------------------------------------
// Invoiced BPs and the companies they invoice (billing: docs/billing.md, Invoices).

export interface InvoicedBp {
  id: string;
  name: string;
  bpType: string;
  country: string;
  currency: string | null;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  state: string | null;
}

const bpColumns = {
  id: companies.id,
  name: companies.name,
  bpType: sql<string>`${companies.bpType}`,
  country: companies.country,
  currency: companies.currency,
  street: companies.street,
  postalCode: companies.postalCode,
  city: companies.city,
  state: companies.state,
};

/** Document 1: BP DR and BP VAD companies are the invoiced ones. */
const invoicedBpKinds = sql`${companies.isBP} AND ${companies.bpType} IN ('DR', 'VAD')`;

export function invoicedBps(db: Executor): Promise<InvoicedBp[]> {
  return db.select(bpColumns).from(companies).where(invoicedBpKinds).orderBy(asc(companies.id));
}

/**
 * The companies a BP invoices (besides itself): its End Customers and, for a VAD, its BP IR
 * companies and their End Customers (the ledger's "who is invoiced", billing's charges.service.ts).
 */
function customersOf(bp: InvoicedBp, c: { bpId: SQL | AnyPgColumn }): SQL {
  return bp.bpType === 'VAD'
    ? sql`(${c.bpId} = ${bp.id} OR ${c.bpId} IN (SELECT ir.id FROM companies ir WHERE ir.bp_id = ${bp.id} AND ir.bp_type = 'IR'))`
    : sql`${c.bpId} = ${bp.id}`;
}

/** The companies a BP invoices and the BP itself, as a subquery `c` of their ids and names (commerce's reads join it). */
export function invoicedCompanies(bp: InvoicedBp) {
  return new QueryBuilder()
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .where(sql`(${customersOf(bp, companies)} OR ${companies.id} = ${bp.id})`)
    .as('c');
}

/** Ids and names of the companies whose usage records a BP's CDR files hold: its customers and itself. */
export async function customerNames(db: Executor, bp: InvoicedBp): Promise<Map<string, string>> {
  const rows = rowsOf<{ id: string; name: string }>(
    await db.execute(
      sql`SELECT c.id, c.name FROM companies c WHERE ${customersOf(bp, { bpId: sql`c.bp_id` })} OR c.id = ${bp.id}`,
    ),
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

// ---------------------------------------------------------------------------------------------
// Changes other modules make to a company.

/** initializing -> active, once: the condition on the status makes a second acceptance a no-op (join). */
export async function activateInitializingCompany(exec: Executor, id: string, now: Date): Promise<boolean> {
  const rows = await exec
    .update(companies)
    .set({ status: 'active', statusUpdatedDate: now })
    .where(and(eq(companies.id, id), eq(companies.status, 'initializing')))
    .returning({ id: companies.id });
  return rows.length > 0;
}

/** The date of a company's avatar or banner (branding). */
export async function setCompanyImageDate(
  exec: Executor,
  companyId: string,
  column: 'lastAvatarUpdateDate' | 'lastBannerUpdateDate',
  date: Date | null,
): Promise<void> {
  await exec
    .update(companies)
    .set({ [column]: date })
    .where(eq(companies.id, companyId));
}

/** Sets a company's customisation values and the template they came from; returns its stored values (customisation). */
export async function setCompanyCustomisations(
  exec: Executor,
  companyId: string,
  values: Record<string, unknown>,
  templateId: string,
): Promise<unknown> {
  const [row] = await exec
    .update(companies)
    .set({ customisations: values, selectedAppCustomisationTemplate: templateId })
    .where(eq(companies.id, companyId))
    .returning({ customisations: companies.customisations });
  return row.customisations;
}

/** Merges `patch` into the company's customisation values in one statement; returns the company (customisation). */
export async function mergeCompanyCustomisations(exec: Executor, companyId: string, patch: Record<string, unknown>) {
  const [row] = await exec
    .update(companies)
    .set({ customisations: sql`${companies.customisations} || ${JSON.stringify(patch)}::jsonb` })
    .where(eq(companies.id, companyId))
    .returning();
  return row;
}

// ---------------------------------------------------------------------------------------------
// The link between companies and organisations (organisations: document 3, Organisations).

export interface CompanyLinkRow {
  id: string;
  name: string;
  organisationId: string | null;
  systemRole: string | null;
}

const companyLinkColumns = {
  id: companies.id,
  name: companies.name,
  organisationId: companies.organisationId,
  systemRole: companies.systemRole,
};

export async function findCompanyLink(exec: Executor, companyId: string): Promise<CompanyLinkRow | undefined> {
  const [row] = await exec.select(companyLinkColumns).from(companies).where(eq(companies.id, companyId));
  return row;
}

/** The companies of an organisation leave it (its deletion). */
export async function unlinkOrganisationCompanies(exec: Executor, organisationId: string): Promise<void> {
  await exec.update(companies).set({ organisationId: null }).where(eq(companies.organisationId, organisationId));
}

/**
 * Links the company to the organisation unless it belongs to another one, in one statement (two
 * concurrent links to different organisations cannot both win). Returns the whole company row
 * (the answer is the Company); undefined when it did not link.
 */
export async function linkCompany(
  exec: Executor,
  companyId: string,
  organisationId: string,
): Promise<typeof companies.$inferSelect | undefined> {
  const [row] = await exec
    .update(companies)
    .set({ organisationId })
    .where(
      and(
        eq(companies.id, companyId),
        or(isNull(companies.organisationId), eq(companies.organisationId, organisationId)),
      ),
    )
    .returning();
  return row;
}

/** Unlinks the company from the organisation; false when it was not linked to it. */
export async function unlinkCompany(exec: Executor, companyId: string, organisationId: string): Promise<boolean> {
  const rows = await exec
    .update(companies)
    .set({ organisationId: null })
    .where(and(eq(companies.id, companyId), eq(companies.organisationId, organisationId)))
    .returning({ id: companies.id });
  return rows.length > 0;
}

const COMPANY_LINK_SORT = { name: companies.name };

export async function listOrganisationCompanyRows(
  exec: Executor,
  organisationId: string,
  p: Paging<'name'>,
): Promise<{ rows: CompanyLinkRow[]; total: number }> {
  const where = eq(companies.organisationId, organisationId);
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select(companyLinkColumns)
      .from(companies)
      .where(where)
      .orderBy(dir(COMPANY_LINK_SORT[p.sortField]), dir(companies.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(companies)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
