// Sample requests of the pbx module (document 2, CloudPBX), for the authorisation matrix (see ./types.ts).
import type { Sample } from './types.ts';

const V = '/api/svc/vcpprovisioning/v1.0';
const PBXS = `${V}/cloudpbxs`;

export const pbxSamples: Record<string, Sample> = {
  // A company has at most one CloudPBX: each case creates one for a company of its own.
  createCloudPbx: {
    type: 'target',
    kind: 'company',
    fresh: true,
    request: (companyId, { n }) => ({
      method: 'POST',
      url: PBXS,
      payload: { companyId, name: `Matrix PBX ${n}`, numberingPrefixes: ['2'], numberingDigits: 3 },
    }),
  },
  listCloudPbxs: {
    type: 'list',
    kind: 'cloudpbx',
    request: (offset) => ({ method: 'GET', url: `${PBXS}?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((s: { id: string }) => s.id),
  },
  getCloudPbx: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${PBXS}/${id}` }),
  },
  updateCloudPbx: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: (id, { n }) => ({
      method: 'PUT',
      url: `${PBXS}/${id}`,
      payload: { name: `Renamed PBX ${n}`, language: 'fr' },
    }),
  },
  deleteCloudPbx: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: (id) => ({ method: 'DELETE', url: `${PBXS}/${id}` }),
  },
};
