// SQL of organisations and of the link between companies and organisations.
import { and, asc, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { companies } from '../companies/companies.tables.ts';
import { organisations } from './organisations.tables.ts';
import type { Paging } from '../../../http/paging.ts';
import type { ORGANISATION_COMPANY_SORT_FIELDS, ORGANISATION_SORT_FIELDS } from './organisations.schemas.ts';

export type OrganisationRow = typeof organisations.$inferSelect;
export type NewOrganisation = typeof organisations.$inferInsert;

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

export async function insertOrganisation(exec: Executor, o: NewOrganisation): Promise<OrganisationRow> {
  const [row] = await exec.insert(organisations).values(o).returning();
  return row;
}

export async function updateOrganisationRow(
  exec: Executor,
  id: string,
  patch: Partial<NewOrganisation>,
): Promise<OrganisationRow | undefined> {
  if (Object.keys(patch).length === 0) {
    const [row] = await exec.select().from(organisations).where(eq(organisations.id, id));
    return row;
  }
  const [row] = await exec.update(organisations).set(patch).where(eq(organisations.id, id)).returning();
  return row;
}

/** Deletes the organisation; its companies are unlinked first (their organisation_id set to NULL). */
export async function deleteOrganisationRow(exec: Executor, id: string): Promise<void> {
  await exec.update(companies).set({ organisationId: null }).where(eq(companies.organisationId, id));
  await exec.delete(organisations).where(eq(organisations.id, id));
}

const ORGANISATION_SORT = {
  name: organisations.name,
  creationDate: organisations.creationDate,
  visibility: organisations.visibility,
};

export async function listOrganisationRows(
  exec: Executor,
  scope: SQL | undefined,
  p: Paging<(typeof ORGANISATION_SORT_FIELDS)[number]>,
): Promise<{ rows: OrganisationRow[]; total: number }> {
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select()
      .from(organisations)
      .where(scope)
      .orderBy(dir(ORGANISATION_SORT[p.sortField]), dir(organisations.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(organisations)
      .where(scope),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

export async function findCompany(exec: Executor, companyId: string): Promise<CompanyLinkRow | undefined> {
  const [row] = await exec.select(companyLinkColumns).from(companies).where(eq(companies.id, companyId));
  return row;
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

const COMPANY_SORT = { name: companies.name };

export async function listOrganisationCompanyRows(
  exec: Executor,
  organisationId: string,
  p: Paging<(typeof ORGANISATION_COMPANY_SORT_FIELDS)[number]>,
): Promise<{ rows: CompanyLinkRow[]; total: number }> {
  const where = eq(companies.organisationId, organisationId);
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select(companyLinkColumns)
      .from(companies)
      .where(where)
      .orderBy(dir(COMPANY_SORT[p.sortField]), dir(companies.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(companies)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
