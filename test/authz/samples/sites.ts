// Sample requests of the sites module, for the authorisation matrix (see ./types.ts).
import type { Sample } from './types.ts';

const A = '/api/svc/admin/v1.0';
const SITES = `${A}/sites`;

export const sitesSamples: Record<string, Sample> = {
  createSite: {
    type: 'target',
    kind: 'company', // the company named in the body
    fresh: false,
    request: (companyId, { n }) => ({ method: 'POST', url: SITES, payload: { companyId, name: `Matrix site ${n}` } }),
  },
  listAllSites: {
    type: 'list',
    kind: 'site',
    request: (offset) => ({ method: 'GET', url: `${SITES}?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((s: { id: string }) => s.id),
  },
  listCompanySites: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (companyId) => ({ method: 'GET', url: `${A}/companies/${companyId}/sites?limit=10` }),
  },
  getSite: { type: 'target', kind: 'site', fresh: false, request: (id) => ({ method: 'GET', url: `${SITES}/${id}` }) },
  // companyId is required: the site's own company (a rename; moves are tested in test/admin/sites.test.ts).
  // The violation moves it: a company_admin may not (the grant's condition), whatever the destination.
  updateSite: {
    type: 'target',
    kind: 'site',
    fresh: true,
    defaultBody: {},
    violations: { siteStaysInItsCompany: { body: { companyId: 'another-company', name: 'Moved site' } } },
    second: {
      destination: { request: (id, companyId) => ({ method: 'PUT', url: `${SITES}/${id}`, payload: { companyId } }) },
    },
    request: (id, { n, world, placement }, body) => ({
      method: 'PUT',
      url: `${SITES}/${id}`,
      payload: body ?? {
        companyId: placement?.company && world ? world.companies[placement.company] : 'x',
        name: `Renamed site ${n}`,
      },
    }),
  },
  deleteSite: {
    type: 'target',
    kind: 'site',
    fresh: true,
    request: (id) => ({ method: 'DELETE', url: `${SITES}/${id}` }),
  },
};
