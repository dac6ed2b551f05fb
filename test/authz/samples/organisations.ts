// Sample requests of the organisations module, for the authorisation matrix (see ./types.ts).
import { eq } from 'drizzle-orm';
import { makeCompany } from '../../support/factories.ts';
import { companies } from '../../../src/modules/admin/companies/companies.tables.ts';
import type { Sample } from './types.ts';

const ORGS = '/api/svc/admin/v1.0/organisations';

export const organisationsSamples: Record<string, Sample> = {
  createOrganisation: {
    type: 'targetless',
    request: ({ n }) => ({ method: 'POST', url: ORGS, payload: { name: `Matrix organisation ${n}` } }),
  },
  listOrganisations: {
    type: 'list',
    kind: 'organisation',
    request: (offset) => ({ method: 'GET', url: `${ORGS}?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((o: { id: string }) => o.id),
  },
  getOrganisation: {
    type: 'target',
    kind: 'organisation',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${ORGS}/${id}` }),
  },
  updateOrganisation: {
    type: 'target',
    kind: 'organisation',
    fresh: true,
    request: (id, { n }) => ({ method: 'PUT', url: `${ORGS}/${id}`, payload: { name: `Renamed organisation ${n}` } }),
  },
  deleteOrganisation: {
    type: 'target',
    kind: 'organisation',
    fresh: true,
    request: (id) => ({ method: 'DELETE', url: `${ORGS}/${id}` }),
  },
  // A company of no organisation, made for the case (the organisation itself does not change).
  linkCompanyToOrganisation: {
    type: 'target',
    kind: 'organisation',
    fresh: false,
    defaultBody: {},
    request: async (id, ctx) => ({
      method: 'POST',
      url: `${ORGS}/${id}/companies`,
      payload: { companyId: await makeCompany(ctx.t) },
    }),
    second: {
      company: {
        request: (id, companyId) => ({ method: 'POST', url: `${ORGS}/${id}/companies`, payload: { companyId } }),
      },
    },
  },
  listOrganisationCompanies: {
    type: 'target',
    kind: 'organisation',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${ORGS}/${id}/companies?limit=10` }),
  },
  // The target is a company of the path's organisation: its own organisation, or the world's
  // `orgElsewhere` for a company of none (the matrix reads the parent from there too).
  unlinkCompanyFromOrganisation: {
    type: 'target',
    kind: 'company',
    fresh: true,
    request: async (companyId, ctx) => {
      const [row] = await ctx.t.db
        .select({ organisationId: companies.organisationId })
        .from(companies)
        .where(eq(companies.id, companyId));
      let organisationId = row?.organisationId;
      if (!organisationId) {
        organisationId = ctx.world.organisations.orgElsewhere;
        await ctx.t.db.update(companies).set({ organisationId }).where(eq(companies.id, companyId));
      }
      return { method: 'DELETE', url: `${ORGS}/${organisationId}/companies/${companyId}` };
    },
  },
};
