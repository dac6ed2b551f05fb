// Sample requests of the groups of a CloudPBX and of their forwards (issue 26, points 1 and 2),
// for the authorisation matrix (see ./types.ts). The matrix makes group targets as hunting
// groups of a CloudPBX of their own (test/authz/matrix.test.ts); a creation makes a
// manager-assistant group, which needs neither a numbering plan nor members.
import { eq } from 'drizzle-orm';
import { groups } from '../../../src/modules/pbx/groups.tables.ts';
import type { Ctx, Sample } from './types.ts';

const PBXS = '/api/svc/vcpprovisioning/v1.0/cloudpbxs';

/** The URL of a group under its CloudPBX (the path names both). */
async function groupUrl(ctx: Ctx, groupId: string, rest = ''): Promise<string> {
  const [g] = await ctx.t.db.select({ id: groups.cloudPbxId }).from(groups).where(eq(groups.id, groupId));
  return `${PBXS}/${g?.id ?? 'none'}/groups/${groupId}${rest}`;
}

function onGroup(rest: string, fresh: boolean, method: 'GET' | 'PUT' | 'DELETE' = 'GET', payload?: unknown): Sample {
  return {
    type: 'target',
    kind: 'group',
    fresh,
    ...(payload !== undefined ? { defaultBody: payload } : {}),
    request: async (id, ctx) => ({
      method,
      url: await groupUrl(ctx, id, rest),
      ...(payload !== undefined ? { payload } : {}),
    }),
  };
}

export const pbxGroupsSamples: Record<string, Sample> = {
  createGroup: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: (id, { n }) => ({
      method: 'POST',
      url: `${PBXS}/${id}/groups`,
      payload: { name: `Matrix group ${n}`, type: 'manager_assistant' },
    }),
  },
  listGroups: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${PBXS}/${id}/groups?limit=10` }),
  },
  getGroup: onGroup('', false),
  updateGroup: onGroup('', true, 'PUT', { name: 'Renamed by the matrix' }),
  deleteGroup: onGroup('', true, 'DELETE'),
  getGroupForwards: onGroup('/forwards', false),
  updateGroupForward: onGroup('/forwards', true, 'PUT', {
    callForwardType: 'immediate',
    activate: true,
    destinationType: 'voicemail',
  }),
};
