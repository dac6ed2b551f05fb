// Rules of the organisations operations (document 3, Organisations; docs/decisions.md).
import type { Static } from 'typebox';
import type { Caller } from '../../../authz/roles.ts';
import type { Executor } from '../../../db/client.ts';
import { readCompany } from '../companies/companies.api.ts';
import { fail } from '../../../errors/catalogue.ts';
import { newId } from '../../../shared/ids.ts';
import * as repo from './organisations.repo.ts';
import type { CreateOrganisationBody, UpdateOrganisationBody } from './organisations.schemas.ts';

export function toApiOrganisation(o: repo.OrganisationRow) {
  return { id: o.id, name: o.name, visibility: o.visibility, creationDate: o.creationDate };
}

export function toApiCompany(c: repo.CompanyLinkRow) {
  return { id: c.id, name: c.name, organisationId: c.organisationId };
}

export async function createOrganisation(exec: Executor, body: Static<typeof CreateOrganisationBody>, now: Date) {
  const row = await repo.insertOrganisation(exec, {
    id: newId(),
    name: body.name,
    visibility: body.visibility ?? 'private',
    creationDate: now,
  });
  return toApiOrganisation(row);
}

export async function updateOrganisation(
  exec: Executor,
  target: repo.OrganisationRow,
  body: Static<typeof UpdateOrganisationBody>,
) {
  const patch: Partial<repo.NewOrganisation> = {};
  if (body.name !== undefined) patch.name = body.name;
  if (body.visibility !== undefined) patch.visibility = body.visibility;
  const row = await repo.updateOrganisationRow(exec, target.id, patch);
  if (!row) fail('NOT_FOUND', { target: 'organisation', id: target.id });
  return toApiOrganisation(row);
}

/** Document 3: deleting an organisation unlinks its companies (they stay, without organisation). */
export async function deleteOrganisation(db: Executor, target: repo.OrganisationRow): Promise<void> {
  return db.transaction(async (exec) => {
    await repo.deleteOrganisationRow(exec, target.id);
  });
}

/**
 * Document 3: links the company to the organisation; a company belongs to at most one
 * organisation (409 when it is in another; linking it again to the same one is no error). Its
 * users follow: a user's organisation is his company's, read on every request. The answer is the
 * Company, as getCompany reads it (document 3: `{data: Company}`).
 */
export async function linkCompany(
  db: Executor,
  caller: Caller,
  organisationId: string,
  companyId: string,
  selectedThemeObj?: boolean,
) {
  return db.transaction(async (exec) => {
    const company = await repo.findCompany(exec, companyId);
    if (!company) fail('NOT_FOUND', { target: 'company', id: companyId });
    // The Default company holds every self-registered user and the Terminated one the leftovers of
    // deleted companies: neither may come under an organisation's administrators.
    if (company.systemRole) fail('ORGANISATION_SYSTEM_COMPANY', { companyId });
    const linked = await repo.linkCompany(exec, companyId, organisationId);
    if (!linked) {
      const now = await repo.findCompany(exec, companyId);
      if (!now) fail('NOT_FOUND', { target: 'company', id: companyId });
      fail('ORGANISATION_COMPANY_IN_OTHER', { companyId, organisationId: now.organisationId });
    }
    return readCompany(exec, caller, linked, selectedThemeObj);
  });
}

export async function unlinkCompany(exec: Executor, organisationId: string, companyId: string): Promise<void> {
  if (!(await repo.unlinkCompany(exec, companyId, organisationId)))
    fail('NOT_FOUND', { target: 'company', id: companyId, organisationId });
}
