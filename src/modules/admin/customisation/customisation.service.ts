// Customisation of companies and users (document 3): templates, the keys of a company (feature
// customisation), the custom elements of a company.
import type { TargetRow } from '../../../authz/targets.ts';
import type { Executor } from '../../../db/client.ts';
import { fail } from '../../../errors/catalogue.ts';
import { listResult, type Paging } from '../../../http/paging.ts';
import {
  BUILT_IN_TEMPLATES,
  CUSTOMISATION_KEYS,
  cleanCompanyValues,
  companyValues,
  userValues,
  COMPANY_MANAGED_KEYS,
} from './customisation.keys.ts';
import * as repo from './customisation.repo.ts';
import type { TemplateRow } from './customisation.repo.ts';
import { isRecord, recordOf } from '../../../shared/json-values.ts';

type CompanyRow = TargetRow<'company'>;

/** Seeds the built-in templates; run at every start, changes nothing when they exist. */
export async function ensureCustomisationTemplates(db: Executor): Promise<void> {
  // Read first: a restart finds them all and writes nothing.
  const present = new Set(
    await repo.templateIds(
      db,
      BUILT_IN_TEMPLATES.map((t) => t.id),
    ),
  );
  for (const t of BUILT_IN_TEMPLATES) {
    if (!present.has(t.id)) await repo.insertTemplateIfAbsent(db, t);
  }
}

export function toApiTemplate(t: TemplateRow) {
  return {
    id: t.id,
    name: t.name,
    description: t.description ?? null,
    isDefault: t.isDefault,
    values: companyValues(t.values),
  };
}

export const TEMPLATE_SORT_FIELDS = ['name', 'isDefault'] as const;

export async function listTemplates(
  db: Executor,
  name: string | undefined,
  paging: Paging<(typeof TEMPLATE_SORT_FIELDS)[number]>,
) {
  const { rows, total } = await repo.listTemplateRows(db, name, paging);
  return listResult(rows.map(toApiTemplate), total, paging);
}

export async function getTemplate(db: Executor, id: string) {
  const row = await repo.findTemplateById(db, id);
  if (!row) fail('CUSTOMISATION_TEMPLATE_NOT_FOUND', { templateId: id });
  return toApiTemplate(row);
}

async function findTemplate(db: Executor, body: { templateId?: string; templateName?: string }): Promise<TemplateRow> {
  if ((body.templateId === undefined) === (body.templateName === undefined)) fail('CUSTOMISATION_TEMPLATE_REQUIRED');
  const row = await repo.findTemplateByIdOrName(db, body);
  if (!row)
    fail(
      'CUSTOMISATION_TEMPLATE_NOT_FOUND',
      body.templateId !== undefined ? { templateId: body.templateId } : { templateName: body.templateName },
    );
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
  const values = cleanCompanyValues(isRecord(template.values) ? template.values : {});
  if (body.userId !== undefined) {
    const user = { id: body.userId };
    const customisations = await repo.setUserCustomisations(db, user.id, values, template.id);
    return {
      status: `Customisation template ${template.name} applied to user ${user.id}`,
      data: {
        userId: user.id,
        templateId: template.id,
        templateName: template.name,
        customisations: userValues(customisations),
      },
    };
  }
  const companyId = company.id;
  const customisations = await repo.setCompanyCustomisations(db, companyId, values, template.id);
  return {
    status: `Customisation template ${template.name} applied to company ${companyId}`,
    data: {
      companyId,
      templateId: template.id,
      templateName: template.name,
      customisations: companyValues(customisations),
    },
  };
}

async function templateRef(db: Executor, id: unknown) {
  if (typeof id !== 'string') return null;
  return (await repo.templateIdAndName(db, id)) ?? { id, name: null };
}

export type { TemplateRef } from './customisation.repo.ts';
import type { TemplateRef } from './customisation.repo.ts';

/** `ref`: the template reference when the authorising statement read it already (customisation.repo.ts). */
export async function featureCustomisation(db: Executor, company: CompanyRow, ref?: TemplateRef) {
  return {
    companyId: company.id,
    selectedAppCustomisationTemplate:
      ref !== undefined ? ref : await templateRef(db, company.selectedAppCustomisationTemplate),
    customisations: companyValues(company.customisations),
    companyManaged: recordOf(COMPANY_MANAGED_KEYS, (k) => company[k]),
  };
}

/** Merges the given keys into the company's values in one statement; an empty body changes nothing. */
export async function setFeatureCustomisation(db: Executor, company: CompanyRow, body: object) {
  const patch = cleanCompanyValues(body);
  if (Object.keys(patch).length === 0) return featureCustomisation(db, company);
  return featureCustomisation(db, await repo.mergeCompanyCustomisations(db, company.id, patch));
}

/** `pre`: the template reference and the templates when the authorising statement read them already. */
export async function customElements(
  db: Executor,
  company: CompanyRow,
  pre?: { ref: TemplateRef; templates: { id: string; name: string; isDefault: boolean }[] },
) {
  const customData =
    company.customData && typeof company.customData === 'object' && !Array.isArray(company.customData)
      ? company.customData
      : {};
  const templates = pre?.templates ?? (await repo.listTemplateSummaries(db));
  return {
    companyId: company.id,
    customDataKeys: Object.keys(customData).sort(),
    selectedAppCustomisationTemplate: pre ? pre.ref : await templateRef(db, company.selectedAppCustomisationTemplate),
    customisationTemplates: templates,
    customisationKeys: [...CUSTOMISATION_KEYS],
    companyManagedKeys: [...COMPANY_MANAGED_KEYS],
  };
}
