// SQL of companies; every function takes the executor it runs on.
import { escapeLike } from '../../../db/like.ts';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { companies } from './companies.tables.ts';
import { USERS_OF_COMPANY_COUNT } from '../users/users.api.ts';
import { companyCommerce, type SubscriptionView } from './companies.hooks.ts';
import type { Paging } from '../../../http/paging.ts';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../../db/client.ts';
import { runCounted, unlessUnchanged, versionedCount } from '../../../db/list-count.ts';
import type { COMPANY_SORT_FIELDS } from './companies.schemas.ts';
import { isRecord, textOr, textOrNull } from '../../../shared/json-values.ts';

export type CompanyRow = typeof companies.$inferSelect;
export type NewCompany = typeof companies.$inferInsert;

export async function insertCompany(exec: Executor, c: NewCompany): Promise<CompanyRow> {
  const [row] = await exec.insert(companies).values(c).returning();
  return row;
}

export async function findCompany(exec: Executor, id: string): Promise<CompanyRow | undefined> {
  const [row] = await exec.select().from(companies).where(eq(companies.id, id)).limit(1);
  return row;
}

export async function findSystemCompany(
  exec: Executor,
  role: 'default' | 'terminated',
): Promise<CompanyRow | undefined> {
  const [row] = await exec.select().from(companies).where(eq(companies.systemRole, role)).limit(1);
  return row;
}

export async function updateCompanyRow(exec: Executor, id: string, patch: Partial<NewCompany>): Promise<CompanyRow> {
  const [row] = await exec.update(companies).set(patch).where(eq(companies.id, id)).returning();
  return row;
}

export type { SubscriptionView } from './companies.hooks.ts';

/**
 * What a company read shows beside its row, as extras of the authorising statement (ctx.extras,
 * src/http/operation.ts): getCompany then answers in one round trip. SQL over the target row `t`.
 */
export const COMPANY_READ_EXTRAS = {
  // commerce's, provided at install (companies.hooks.ts); read when the statement is first built.
  get subscriptions(): SQL {
    return companyCommerce.get.subscriptionsExtra;
  },
  numberUsers: USERS_OF_COMPANY_COUNT,
};

/** The subscriptions extra as the views readCompany gives (json dates become Dates again). */
export function subscriptionsFromExtra(v: unknown): SubscriptionView[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).map((s) => ({
    profileName: textOrNull(s.profileName),
    profileId: textOrNull(s.profileId),
    offerName: textOr(s.offerName),
    offerId: textOr(s.offerId),
    _id: textOr(s._id),
    creationDate: new Date(String(s.creationDate)),
    status: textOr(s.status),
    isDefault: s.isDefault === true,
    maxNumberUsers: typeof s.maxNumberUsers === 'number' ? s.maxNumberUsers : null,
  }));
}

// ---------------------------------------------------------------------------------------------
// List (document 3, list companies): every filter and the sort in SQL.

export interface CompanyFilters {
  bpId?: string;
  catalogId?: string;
  offerId?: string;
  offerCanBeSold?: boolean;
  externalReference?: string;
  externalReference2?: string;
  crmAccountId?: string;
  selectedAppCustomisationTemplate?: string;
  offerGroupName?: string;
  bpBusinessType?: string[];
  keywords?: string[];
  status?: string[];
  visibility?: string[];
  organisationId?: string;
  isBP?: boolean;
  hasBP?: boolean;
  bpType?: string[];
}

const textArray = (values: string[]) => sql`${sql.param(values)}::text[]`;

export function companyFilterSql(f: CompanyFilters): SQL[] {
  const c: SQL[] = [];
  if (f.bpId) c.push(eq(companies.bpId, f.bpId));
  if (f.catalogId) c.push(eq(companies.catalogId, f.catalogId));
  if (f.externalReference) c.push(eq(companies.externalReference, f.externalReference));
  if (f.externalReference2) c.push(eq(companies.externalReference2, f.externalReference2));
  if (f.crmAccountId) c.push(eq(companies.crmAccountId, f.crmAccountId));
  if (f.selectedAppCustomisationTemplate)
    c.push(eq(companies.selectedAppCustomisationTemplate, f.selectedAppCustomisationTemplate));
  if (f.organisationId) c.push(eq(companies.organisationId, f.organisationId));
  if (f.isBP !== undefined) c.push(eq(companies.isBP, f.isBP));
  if (f.hasBP !== undefined) c.push(f.hasBP ? sql`${companies.bpId} IS NOT NULL` : sql`${companies.bpId} IS NULL`);
  // One value as an equality: an ordered index range can then serve the page (= ANY cannot).
  // The query's values are free text (an unknown one matches no company): compared as text, as eq() would write it.
  if (f.status?.length === 1) c.push(sql`${companies.status} = ${f.status[0]}`);
  else if (f.status?.length) c.push(sql`${companies.status} = ANY(${textArray(f.status)})`);
  if (f.visibility?.length) c.push(sql`${companies.visibility} = ANY(${textArray(f.visibility)})`);
  if (f.bpType?.length) c.push(sql`${companies.bpType} = ANY(${textArray(f.bpType)})`);
  if (f.bpBusinessType?.length) c.push(sql`${companies.bpBusinessType} && ${textArray(f.bpBusinessType)}`);
  // ILIKE '%kw%': the form the trigram index (companies_name_trgm_idx) serves.
  for (const kw of f.keywords ?? []) c.push(sql`${companies.name} ILIKE ${`%${escapeLike(kw)}%`}`);
  // Offer filters: one uncorrelated semi-join each (planned once, not per row), commerce's SQL.
  if (f.offerId || f.offerCanBeSold !== undefined || f.offerGroupName)
    for (const q of companyCommerce.get.companiesWithOffer(f)) c.push(sql`${companies.id} IN ${q}`);
  return c;
}

const SORT: Record<(typeof COMPANY_SORT_FIELDS)[number], SQL | AnyPgColumn> = {
  name: sql`lower(${companies.name})`,
  creationDate: companies.creationDate,
  status: companies.status,
  country: companies.country,
  externalReference: companies.externalReference,
};

function listWhere(scope: SQL | undefined, f: CompanyFilters) {
  return and(...[scope, ...companyFilterSql(f)].filter((x): x is SQL => !!x));
}

function pageOf<T>(
  query: {
    orderBy: (...c: (SQL | AnyPgColumn)[]) => { limit: (n: number) => { offset: (n: number) => Promise<T[]> } };
  },
  p: Paging<(typeof COMPANY_SORT_FIELDS)[number]>,
) {
  const dir = p.sortOrder === 1 ? asc : desc;
  return query.orderBy(dir(SORT[p.sortField]), dir(companies.id)).limit(p.limit).offset(p.offset);
}

async function countCompanies(
  database: Database,
  where: SQL | undefined,
  version: string | undefined,
): Promise<number> {
  const row = await runCounted(
    database,
    (known) =>
      sql`SELECT ${versionedCount('companies', sql`SELECT count(*)::int FROM ${companies} WHERE ${where ?? sql`TRUE`}`, known)}`,
    undefined,
    version,
  );
  return row.total;
}

/** The page (every column) and the count, in parallel. */
export async function listCompanyRows(
  database: Database,
  scope: SQL | undefined,
  f: CompanyFilters,
  p: Paging<(typeof COMPANY_SORT_FIELDS)[number]>,
  version?: string,
): Promise<{ rows: CompanyRow[]; total: number }> {
  const where = listWhere(scope, f);
  const [rows, total] = await Promise.all([
    pageOf<CompanyRow>(database.db.select().from(companies).where(where), p),
    countCompanies(database, where, version),
  ]);
  return { rows, total };
}

/**
 * The page at the small level, `{name, id}`: only those two columns are read. A partner's list
 * of customers is the hot path; reading and mapping the ninety other columns cost most of it.
 */
export async function listCompanyNames(
  database: Database,
  scope: { where: SQL | undefined; key: string | undefined },
  f: CompanyFilters,
  p: Paging<(typeof COMPANY_SORT_FIELDS)[number]>,
  version?: string,
): Promise<{ rows: { name: string; id: string }[]; total: number }> {
  const dir = sql.raw(p.sortOrder === 1 ? 'ASC' : 'DESC');
  // Built once per scope, filters and page (src/db/list-count.ts): the same request again, from
  // this caller or any other of the same scope, skips the query builder.
  const buildKey =
    scope.key === undefined
      ? undefined
      : JSON.stringify(['companyNames', scope.key, f, p.sortField, p.sortOrder, p.limit, p.offset]);
  // One statement for the page and the total (one round trip); the page keeps its sort key so
  // that the aggregate is ordered exactly as the page. Page and total are computed only when the
  // companies changed since this statement (with these values) was last answered; otherwise the
  // remembered answer stands (src/db/list-count.ts).
  const row = await runCounted<{
    list_version: string | null;
    total: number | null;
    rows: { name: string; id: string }[] | null;
  }>(
    database,
    (known) => {
      const where = listWhere(scope.where, f) ?? sql`TRUE`;
      return sql`WITH page AS (
      SELECT ${companies.name} AS name, ${companies.id} AS id, ${SORT[p.sortField]} AS k
      FROM ${companies} WHERE ${where}
      ORDER BY ${SORT[p.sortField]} ${dir}, ${companies.id} ${dir} LIMIT ${p.limit} OFFSET ${p.offset})
    SELECT ${unlessUnchanged('companies', sql`COALESCE((SELECT json_agg(json_build_object('name', name, 'id', id) ORDER BY k ${dir}, id ${dir}) FROM page), '[]'::json)`, known, 'rows')},
      ${versionedCount('companies', sql`SELECT count(*)::int FROM ${companies} WHERE ${where}`, known)}`;
    },
    buildKey,
    version,
  );
  return { rows: row.rows ?? [], total: row.total };
}

/**
 * The company's organisation, its row share-locked until the transaction ends: a link or unlink
 * of the company waits for the users being created in it (users' companyOrganisationShared).
 */
export async function companyOrganisationShared(exec: Executor, companyId: string): Promise<string | null> {
  const [row] = await exec
    .select({ organisationId: companies.organisationId })
    .from(companies)
    .where(eq(companies.id, companyId))
    .for('share');
  return row?.organisationId ?? null;
}
