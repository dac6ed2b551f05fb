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
  // Options and reference data (issue 25, point 2): the CloudPBX of the path is the target.
  ...reads({
    listLanguages: 'languages',
    getBarringOptions: 'barring-options',
    getCustomNumbersRestriction: 'barring-options/custom-numbers-restriction',
    getCliOptions: 'cli-options',
    getPeerAuthentication: 'peer-authentication-options',
    getEmergencyNumbers: 'emergency-numbers',
    listDeviceModels: 'devicemodels',
    getDeviceModel: 'devicemodels/999999',
  }),
  updateCustomNumbersRestriction: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: (id, { n }) => ({
      method: 'PUT',
      url: `${PBXS}/${id}/barring-options/custom-numbers-restriction`,
      payload: { patterns: [{ pattern: `^0899${n}`, description: 'premium' }] },
    }),
  },
  updateCliOptions: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: (id) => ({ method: 'PUT', url: `${PBXS}/${id}/cli-options`, payload: { policy: 'user_ddi_number' } }),
  },
  updatePeerAuthentication: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: (id, { n }) => ({
      method: 'PUT',
      url: `${PBXS}/${id}/peer-authentication-options`,
      payload: { username: `peer${n}`, password: 'matrix-secret' },
    }),
  },
  updateOverflowOptions: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: (id) => ({ method: 'PUT', url: `${PBXS}/${id}/overflow-options`, payload: { activate: true } }),
  },
};

/** Reads of a CloudPBX's sub-path: the CloudPBX as it is (no change, so not fresh). */
function reads(paths: Record<string, string>): Record<string, Sample> {
  return Object.fromEntries(
    Object.entries(paths).map(([operationId, path]) => [
      operationId,
      {
        type: 'target',
        kind: 'cloudpbx',
        fresh: false,
        request: (id: string) => ({ method: 'GET', url: `${PBXS}/${id}/${path}` }),
      } satisfies Sample,
    ]),
  );
}
