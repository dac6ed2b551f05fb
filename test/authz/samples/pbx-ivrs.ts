// Sample requests of the welcomes and welcome services of a CloudPBX and their office hours
// (document 2, Welcome services (IVR); issue 26, points 6 and 7), for the authorisation matrix
// (see ./types.ts). An ivr target is a welcome in a CloudPBX of its own (the matrix's producer);
// its path names that PBX, found in the database.
import { eq } from 'drizzle-orm';
import { newId } from '../../../src/shared/ids.ts';
import { ivrs } from '../../../src/modules/pbx/ivrs.tables.ts';
import type { Ctx, Req, Sample } from './types.ts';

const PBXS = '/api/svc/vcpprovisioning/v1.0/cloudpbxs';
const ivrsOf = (systemId: string) => `${PBXS}/${systemId}/ivrs`;

/** The CloudPBX of a welcome (the path names it). */
async function pbxOf(ctx: Ctx, ivrId: string): Promise<string> {
  const [r] = await ctx.t.db.select({ cloudPbxId: ivrs.cloudPbxId }).from(ivrs).where(eq(ivrs.id, ivrId));
  return r?.cloudPbxId ?? 'none';
}

/** A welcome of the CloudPBX, for a welcome service to use. */
async function welcomeOf(ctx: Ctx, cloudPbxId: string): Promise<string> {
  const id = newId();
  await ctx.t.db.insert(ivrs).values({ id, cloudPbxId, kind: 'welcome', name: `Sample welcome ${ctx.n}` });
  return id;
}

const onIvr = (method: string, suffix: string, payload?: unknown) => ({
  type: 'target' as const,
  kind: 'ivr' as const,
  fresh: method !== 'GET',
  request: async (id: string, ctx: Ctx): Promise<Req> => ({
    method,
    url: `${ivrsOf(await pbxOf(ctx, id))}/${id}${suffix}`,
    ...(payload !== undefined ? { payload } : {}),
  }),
});

export const pbxIvrsSamples: Record<string, Sample> = {
  createWelcome: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: (id, { n }): Req => ({ method: 'POST', url: `${ivrsOf(id)}/welcomes`, payload: { name: `Welcome ${n}` } }),
  },
  listWelcomes: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: (id): Req => ({ method: 'GET', url: `${ivrsOf(id)}/welcomes?limit=10` }),
  },
  createWelcomeService: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    request: async (id, ctx): Promise<Req> => {
      const welcomeId = await welcomeOf(ctx, id);
      return {
        method: 'POST',
        url: `${ivrsOf(id)}/welcomeservices`,
        payload: {
          name: `Service ${ctx.n}`,
          welcomeId,
          openHoursOverflow: { type: 'office_hours', destinationId: welcomeId },
        },
      };
    },
  },
  listWelcomeServices: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: (id): Req => ({ method: 'GET', url: `${ivrsOf(id)}/welcomeservices?limit=10` }),
  },
  getWelcome: onIvr('GET', ''),
  updateWelcome: onIvr('POST', '', { name: 'Renamed welcome' }),
  deleteWelcome: onIvr('DELETE', ''),
  getOfficeHours: onIvr('GET', '/officehours'),
  updateOfficeHours: onIvr('PUT', '/officehours', {
    officehours: { openhours: [[], [['08:00', '12:00']], [], [], [], [], []], exceptions: [] },
  }),
};
