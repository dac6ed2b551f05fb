// SQL of customisation: the templates, the customisation values of companies and users, what
// the service description of a company reads, and the reads that come with the authorising
// statement (ctx.extras, src/http/operation.ts), so a company's customisation reads answer in one round trip.
import { asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { customisationTemplates } from './customisation.tables.ts';
import type { Paging } from '../../../http/paging.ts';

export type TemplateRow = typeof customisationTemplates.$inferSelect;
export type NewTemplate = typeof customisationTemplates.$inferInsert;

export async function listTemplateRows(
  exec: Executor,
  name: string | undefined,
  paging: Paging<'name' | 'isDefault'>,
): Promise<{ rows: TemplateRow[]; total: number }> {
  const where: SQL | undefined = name
    ? sql`lower(${customisationTemplates.name}) LIKE ${`%${name.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`}`
    : undefined;
  const col = paging.sortField === 'isDefault' ? customisationTemplates.isDefault : customisationTemplates.name;
  const dir = paging.sortOrder === -1 ? desc : asc;
  const rows = await exec
    .select()
    .from(customisationTemplates)
    .where(where)
    .orderBy(dir(col), asc(customisationTemplates.id))
    .limit(paging.limit)
    .offset(paging.offset);
  const [total] = await exec.select({ n: count() }).from(customisationTemplates).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

export async function findTemplateById(exec: Executor, id: string): Promise<TemplateRow | undefined> {
  const [row] = await exec.select().from(customisationTemplates).where(eq(customisationTemplates.id, id));
  return row;
}

/** The template of that id, or else the first (by id) of that name, case-insensitively. */
export async function findTemplateByIdOrName(
  exec: Executor,
  ref: { templateId?: string; templateName?: string },
): Promise<TemplateRow | undefined> {
  const where =
    ref.templateId !== undefined
      ? eq(customisationTemplates.id, ref.templateId)
      : sql`lower(${customisationTemplates.name}) = ${ref.templateName!.toLowerCase()}`;
  const [row] = await exec
    .select()
    .from(customisationTemplates)
    .where(where)
    .orderBy(asc(customisationTemplates.id))
    .limit(1);
  return row;
}

export async function templateIdAndName(exec: Executor, id: string): Promise<{ id: string; name: string } | undefined> {
  const [t] = await exec
    .select({ id: customisationTemplates.id, name: customisationTemplates.name })
    .from(customisationTemplates)
    .where(eq(customisationTemplates.id, id));
  return t;
}

export async function listTemplateSummaries(
  exec: Executor,
): Promise<{ id: string; name: string; isDefault: boolean }[]> {
  return exec
    .select({
      id: customisationTemplates.id,
      name: customisationTemplates.name,
      isDefault: customisationTemplates.isDefault,
    })
    .from(customisationTemplates)
    .orderBy(asc(customisationTemplates.name), asc(customisationTemplates.id));
}

/** Inserts the template unless one with its id exists. */
/** Which of these template ids exist. */
export async function templateIds(exec: Executor, ids: string[]): Promise<string[]> {
  const rows = await exec
    .select({ id: customisationTemplates.id })
    .from(customisationTemplates)
    .where(inArray(customisationTemplates.id, ids));
  return rows.map((r) => r.id);
}

export async function insertTemplateIfAbsent(exec: Executor, t: NewTemplate): Promise<void> {
  await exec.insert(customisationTemplates).values(t).onConflictDoNothing();
}

export async function templateName(exec: Executor, id: string): Promise<string | undefined> {
  const [row] = await exec
    .select({ name: customisationTemplates.name })
    .from(customisationTemplates)
    .where(eq(customisationTemplates.id, id));
  return row?.name;
}

// The values of users and companies, and the names and sites of companies and organisations,
// are their modules' (their faces).
export { setUserCustomisations } from '../users/users.api.ts';
export { setCompanyCustomisations, mergeCompanyCustomisations, companyName } from '../companies/companies.api.ts';
export { organisationName } from '../organisations/organisations.api.ts';
export { companySites } from '../sites/sites.api.ts';

/** The template the company applied last, `{id, name}` (name null when the template is gone), or null. */
export type TemplateRef = { id: string; name: string | null } | null;
const templateRef = sql<TemplateRef>`CASE WHEN t.selected_app_customisation_template IS NULL THEN NULL
  ELSE json_build_object('id', t.selected_app_customisation_template,
    'name', (SELECT ct.name FROM customisation_templates ct WHERE ct.id = t.selected_app_customisation_template)) END`;

export const FEATURE_CUSTOMISATION_EXTRAS = { templateRef };

export const CUSTOM_ELEMENTS_EXTRAS = {
  templateRef,
  templates: sql<
    { id: string; name: string; isDefault: boolean }[]
  >`(SELECT COALESCE(json_agg(json_build_object('id', ct.id, 'name', ct.name, 'isDefault', ct.is_default) ORDER BY ct.name, ct.id), '[]'::json)
    FROM customisation_templates ct)`,
};
