// Sample requests of the companies module, for the authorisation matrix (see ./types.ts).
import type { Sample } from './types.ts';

const A = '/api/svc/admin/v1.0/companies';
const E = '/api/svc/enduser/v1.0';

export const companiesSamples: Record<string, Sample> = {
  // The target is the company the new one goes under (bpId): only BP companies are accepted
  // (400106); the world's BPs are vad, ir, orgBp and orgIr.
  createCompany: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id, { n }) => ({ method: 'POST', url: A, payload: { name: `Matrix company ${n}`, bpId: id } }),
    businessRefusal: (p) =>
      p.company && ['vad', 'ir', 'orgBp', 'orgIr'].includes(p.company) ? undefined : { status: 400, code: 400106 },
  },
  // The target is the caller's own company whatever the placement; no caller of the world sits
  // in the Default company, so the service refuses every case (403101).
  createOwnCompany: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (_id, { n }) => ({ method: 'POST', url: `${E}/companies`, payload: { name: `Own company ${n}` } }),
    businessRefusal: () => ({ status: 403, code: 403101 }),
  },
  listCompanies: {
    type: 'list',
    kind: 'company',
    request: (offset) => ({ method: 'GET', url: `${A}?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((c: { id: string }) => c.id),
  },
  getDefaultCompany: { type: 'authenticated', request: () => ({ method: 'GET', url: `${A}/default` }) },
  getCompany: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${A}/${id}?format=full` }),
  },
  // The sample body is empty (no change): every grant accepts it, the BP's on its End Customers
  // too (subscriptionFlagsOnly), and a field other than the flags violates that condition.
  // Changing the flags themselves is tested in test/admin/company-subscription-flags.test.ts (the
  // service lets only the BP and superadmin change them, which a placement alone cannot tell).
  updateCompany: {
    type: 'target',
    kind: 'company',
    fresh: true,
    request: (id, _ctx, body) => ({ method: 'PUT', url: `${A}/${id}`, payload: body ?? {} }),
    violations: { subscriptionFlagsOnly: { body: { slogan: 'not a subscription flag' } } },
  },
  deleteCompany: {
    type: 'target',
    kind: 'company',
    fresh: true,
    request: (id) => ({ method: 'DELETE', url: `${A}/${id}` }),
  },
  setCompanyCustomData: {
    type: 'target',
    kind: 'company',
    fresh: true,
    request: (id, { n }) => ({ method: 'PUT', url: `${A}/${id}/custom-data`, payload: { customData: { n } } }),
  },
  listCompanyAdministrators: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${A}/${id}/administrators?limit=10` }),
  },
  listCountries: { type: 'public', request: async () => ({ method: 'GET', url: `${E}/countries` }) },
};
