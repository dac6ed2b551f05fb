// Sample requests of the external trunks (document 2, External trunks), for the authorisation matrix (see ./types.ts).
import type { Sample } from './types.ts';

const V = '/api/svc/vcpprovisioning/v1.0';
const TRUNKS = `${V}/externaltrunks`;

export const pbxTrunksSamples: Record<string, Sample> = {
  listExternalTrunks: {
    type: 'list',
    kind: 'trunk',
    request: (offset) => ({ method: 'GET', url: `${TRUNKS}?limit=1000&offset=${offset}` }),
    ids: (b) => b.data.map((s: { id: string }) => s.id),
  },
  getExternalTrunk: {
    type: 'target',
    kind: 'trunk',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${TRUNKS}/${id}` }),
  },
  createExternalTrunk: {
    type: 'targetless',
    request: ({ n }) => ({
      method: 'POST',
      url: TRUNKS,
      payload: { name: `Matrix trunk ${n}`, vcpInstanceId: 'vcp-eu-1', trunkType: 'bp_trunk' },
    }),
  },
  updateExternalTrunk: {
    type: 'target',
    kind: 'trunk',
    fresh: true,
    request: (id, { n }) => ({ method: 'PUT', url: `${TRUNKS}/${id}`, payload: { name: `Renamed trunk ${n}` } }),
  },
  deleteExternalTrunk: {
    type: 'target',
    kind: 'trunk',
    fresh: true,
    request: (id) => ({ method: 'DELETE', url: `${TRUNKS}/${id}` }),
  },
};
