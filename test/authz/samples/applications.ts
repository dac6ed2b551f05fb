// Sample requests of the applications module, for the authorisation matrix (see ./types.ts).
import type { Sample } from './types.ts';

const AP = '/api/svc/applications/v1.0/applications';

export const applicationsSamples: Record<string, Sample> = {
  createApplication: {
    type: 'authenticated',
    request: ({ n }) => ({ method: 'POST', url: AP, payload: { name: `Matrix app ${n}` } }),
  },
  listApplications: {
    type: 'list',
    kind: 'application',
    request: (offset) => ({ method: 'GET', url: `${AP}?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((a: { id: string }) => a.id),
  },
  getApplication: {
    type: 'target',
    kind: 'application',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${AP}/${id}` }),
  },
  updateApplication: {
    type: 'target',
    kind: 'application',
    fresh: true,
    request: (id, { n }) => ({ method: 'PUT', url: `${AP}/${id}`, payload: { name: `Renamed ${n}` } }),
  },
  deleteApplication: {
    type: 'target',
    kind: 'application',
    fresh: true,
    request: (id) => ({ method: 'DELETE', url: `${AP}/${id}` }),
  },
  renewApplicationSecret: {
    type: 'target',
    kind: 'application',
    fresh: true,
    request: (id) => ({ method: 'POST', url: `${AP}/${id}/secret` }),
  },
};
