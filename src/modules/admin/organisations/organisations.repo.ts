// SQL of organisations and of the link between companies and organisations.
import { asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { unlinkOrganisationCompanies } from '../companies/companies.api.ts';
import { organisations } from './organisations.tables.ts';
import type { Paging } from '../../../http/paging.ts';
import type { ORGANISATION_SORT_FIELDS } from './organisations.schemas.ts';

export type OrganisationRow = typeof organisations.$inferSelect;
export type NewOrganisation = typeof organisations.$inferInsert;

// The link itself is a column of the companies table: companies' face changes it.
export {
  type CompanyLinkRow,
  findCompanyLink as findCompany,
  linkCompany,
  unlinkCompany,
  listOrganisationCompanyRows,
} from '../companies/companies.api.ts';

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
  await unlinkOrganisationCompanies(exec, id);
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
