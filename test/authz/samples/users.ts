// Sample requests of the users module, for the authorisation matrix (see ./types.ts).
import { PASSWORD, type Sample } from './types.ts';

const USERS = '/api/svc/admin/v1.0/users';

export const usersSamples: Record<string, Sample> = {
  createUser: {
    type: 'target',
    kind: 'company', // the company named in the body
    fresh: false,
    request: (companyId, { n }) => ({
      method: 'POST',
      url: USERS,
      payload: { loginEmail: `matrix-new-${n}@example.com`, password: PASSWORD, companyId },
    }),
  },
  listUsers: {
    type: 'list',
    kind: 'user',
    request: (offset) => ({ method: 'GET', url: `${USERS}?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((u: { id: string }) => u.id),
  },
  getUser: { type: 'target', kind: 'user', fresh: false, request: (id) => ({ method: 'GET', url: `${USERS}/${id}` }) },
  updateUser: {
    type: 'target',
    kind: 'user',
    fresh: true,
    request: (id, { n }, body) => ({
      method: 'PUT',
      url: `${USERS}/${id}`,
      payload: body ?? { firstName: `Renamed${n}` },
    }),
    violations: {
      targetHasNoHigherRole: { targetRoles: ['support', 'user'] },
      selfServiceFieldsOnly: { body: { adminType: 'undefined' } },
    },
  },
  deleteUser: {
    type: 'target',
    kind: 'user',
    fresh: true,
    request: (id) => ({ method: 'DELETE', url: `${USERS}/${id}` }),
    violations: { targetHasNoHigherRole: { targetRoles: ['support', 'user'] } },
    businessRefusal: (p) => (p.self ? { status: 403, code: 403003 } : undefined),
  },
};
