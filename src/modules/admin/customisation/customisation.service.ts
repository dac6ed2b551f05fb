// Customisation of companies and users (document 3): templates, the keys of a company (feature
// customisation), the custom elements of a company.
import { listResult } from '../../../http/paging.ts';
import { asc, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { TargetRow } from '../../../authz/targets.ts';
import type { Executor } from '../../../db/client.ts';

type CompanyRow = TargetRow<'company'>;
import { companies } from '../companies/companies.tables.ts';
import { customisationTemplates } from './customisation.tables.ts';
import { users } from '../users/users.tables.ts';
import { fail } from '../../../errors/catalogue.ts';
import type { Paging } from '../../../http/paging.ts';
import { CUSTOMISATION_KEYS, cleanCompanyValues, companyValues, userValues, COMPANY_MANAGED_KEYS } from './customisation.keys.ts';

type TemplateRow = typeof customisationTemplates.$inferSelect;

export function toApiTemplate(t: TemplateRow) {
  return { id: t.id, name: t.name, description: t.description ?? null, isDefault: t.isDefault, values: companyValues(t.values) };
}

export const TEMPLATE_SORT_FIELDS = ['name', 'isDefault'] as const;

export async function listTemplates(db: Executor, name: string | undefined, paging: Paging<(typeof TEMPLATE_SORT_FIELDS)[number]>) {
  const where: SQL | undefined = name ? sql`lower(${customisationTemplates.name}) LIKE ${`%${name.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`}` : undefined;
  const col = paging.sortField === 'isDefault' ? customisationTemplates.isDefault : customisationTemplates.name;
  const dir = paging.sortOrder === -1 ? desc : asc;
  const rows = await db.select().from(customisationTemplates).where(where).orderBy(dir(col), asc(customisationTemplates.id)).limit(paging.limit).offset(paging.offset);
  const [total] = await db.select({ n: count() }).from(customisationTemplates).where(where);
  return listResult(rows.map(toApiTemplate), Number(total?.n ?? 0), paging);
}

export async function getTemplate(db: Executor, id: string) {
  const [row] = await db.select().from(customisationTemplates).where(eq(customisationTemplates.id, id));
  if (!row) fail('CUSTOMISATION_TEMPLATE_NOT_FOUND', { templateId: id });
  return toApiTemplate(row);
}

async function findTemplate(db: Executor, body: { templateId?: string; templateName?: string }): Promise<TemplateRow> {
  if ((body.templateId === undefined) === (body.templateName === undefined)) fail('CUSTOMISATION_TEMPLATE_REQUIRED');
  const where = body.templateId !== undefined ? eq(customisationTemplates.id, body.templateId) : sql`lower(${customisationTemplates.name}) = ${body.templateName!.toLowerCase()}`;
  const [row] = await db.select().from(customisationTemplates).where(where).orderBy(asc(customisationTemplates.id)).limit(1);
  if (!row) fail('CUSTOMISATION_TEMPLATE_NOT_FOUND', body.templateId !== undefined ? { templateId: body.templateId } : { templateName: body.templateName });
  return row;
}

export interface ApplyBody {
  templateId?: string;
  templateName?: string;
  companyId?: string;
  userId?: string;
}

/**
 * Applies a template to a company (its values and selectedAppCustomisationTemplate) or to a user
 * (his own values). The company (the body's companyId, else the caller's company) and the user
 * are authorised before the handler.
 */
export async function applyTemplate(db: Executor, company: CompanyRow, body: ApplyBody) {
  if (body.companyId !== undefined && body.userId !== undefined) fail('CUSTOMISATION_TARGET_REQUIRED');
  const template = await findTemplate(db, body);
  const values = cleanCompanyValues((template.values ?? {}) as Record<string, unknown>);
  if (body.userId !== undefined) {
    const user = { id: body.userId };
    const [row] = await db
      .update(users)
      .set({ customisations: values, selectedAppCustomisationTemplate: template.id })
      .where(eq(users.id, user.id))
      .returning({ customisations: users.customisations });
    return {
      status: `Customisation template ${template.name} applied to user ${user.id}`,
      data: { userId: user.id, templateId: template.id, templateName: template.name, customisations: userValues(row!.customisations) },
    };
  }
  const companyId = company.id as string;
  const [row] = await db
    .update(companies)
    .set({ customisations: values, selectedAppCustomisationTemplate: template.id })
    .where(eq(companies.id, companyId))
    .returning({ customisations: companies.customisations });
  return {
    status: `Customisation template ${template.name} applied to company ${companyId}`,
    data: { companyId, templateId: template.id, templateName: template.name, customisations: companyValues(row!.customisations) },
  };
}

async function templateRef(db: Executor, id: unknown) {
  if (typeof id !== 'string') return null;
  const [t] = await db.select({ id: customisationTemplates.id, name: customisationTemplates.name }).from(customisationTemplates).where(eq(customisationTemplates.id, id));
  return t ?? { id, name: null };
}

export type TemplateRef = { id: string; name: string | null } | null;

/** `ref`: the template reference when the authorising statement read it already (customisation.repo.ts). */
export async function featureCustomisation(db: Executor, company: CompanyRow, ref?: TemplateRef) {
  return {
    companyId: company.id as string,
    selectedAppCustomisationTemplate: ref !== undefined ? ref : await templateRef(db, company.selectedAppCustomisationTemplate),
    customisations: companyValues(company.customisations),
    companyManaged: Object.fromEntries(COMPANY_MANAGED_KEYS.map((k) => [k, company[k] as string])) as Record<(typeof COMPANY_MANAGED_KEYS)[number], string>,
  };
}

/** Merges the given keys into the company's values in one statement; an empty body changes nothing. */
export async function setFeatureCustomisation(db: Executor, company: CompanyRow, body: Record<string, unknown>) {
  const patch = cleanCompanyValues(body);
  if (Object.keys(patch).length === 0) return featureCustomisation(db, company);
  const [row] = await db
    .update(companies)
    .set({ customisations: sql`${companies.customisations} || ${JSON.stringify(patch)}::jsonb` })
    .where(eq(companies.id, company.id as string))
    .returning();
  return featureCustomisation(db, row!);
}

/** `pre`: the template reference and the templates when the authorising statement read them already. */
export async function customElements(db: Executor, company: CompanyRow, pre?: { ref: TemplateRef; templates: { id: string; name: string; isDefault: boolean }[] }) {
  const customData = company.customData && typeof company.customData === 'object' && !Array.isArray(company.customData) ? (company.customData as Record<string, unknown>) : {};
  const templates =
    pre?.templates ??
    (await db
      .select({ id: customisationTemplates.id, name: customisationTemplates.name, isDefault: customisationTemplates.isDefault })
      .from(customisationTemplates)
      .orderBy(asc(customisationTemplates.name), asc(customisationTemplates.id)));
  return {
    companyId: company.id as string,
    customDataKeys: Object.keys(customData).sort(),
    selectedAppCustomisationTemplate: pre ? pre.ref : await templateRef(db, company.selectedAppCustomisationTemplate),
    customisationTemplates: templates,
    customisationKeys: [...CUSTOMISATION_KEYS],
    companyManagedKeys: [...COMPANY_MANAGED_KEYS],
  };
}
