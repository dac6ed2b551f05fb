// Sample requests of the SIP devices and programmable keys of a CloudPBX (document 2; routes.md,
// CloudPBX), for the authorisation matrix (see ./types.ts). The matrix makes device targets as
// rows of a CloudPBX of their own (generic SIP model, no registrar account: the service makes or
// skips the account as it does for one the registrar lost) and subscriber targets the same way.
import { eq } from 'drizzle-orm';
import { newId } from '../../../src/shared/ids.ts';
import { users } from '../../../src/modules/admin/users/users.tables.ts';
import { systems } from '../../../src/modules/systems/systems.tables.ts';
import { devices, programmableKeys } from '../../../src/modules/pbx/devices.tables.ts';
import { subscribers } from '../../../src/modules/pbx/subscribers.tables.ts';
import type { Ctx, Sample } from './types.ts';

const PBXS = '/api/svc/vcpprovisioning/v1.0/cloudpbxs';

/** The CloudPBX of a device (the path names it). */
async function pbxOfDevice(ctx: Ctx, deviceId: string): Promise<string> {
  const [d] = await ctx.t.db.select({ id: devices.cloudPbxId }).from(devices).where(eq(devices.id, deviceId));
  return d?.id ?? 'none';
}

/** The CloudPBX of a subscriber (the path names it). */
async function pbxOfSubscriber(ctx: Ctx, subscriberId: string): Promise<string> {
  const [s] = await ctx.t.db
    .select({ id: subscribers.cloudPbxId })
    .from(subscribers)
    .where(eq(subscribers.id, subscriberId));
  return s?.id ?? 'none';
}

const deviceUrl = async (ctx: Ctx, id: string, rest = '') =>
  `${PBXS}/${await pbxOfDevice(ctx, id)}/devices/${id}${rest}`;

/** A device of the CloudPBX, generic SIP model, unassigned. */
async function deviceIn(ctx: Ctx, cloudPbxId: string): Promise<string> {
  const id = newId();
  await ctx.t.db.insert(devices).values({
    id,
    cloudPbxId,
    description: `Sample device ${ctx.n}`,
    deviceTypeId: 999999,
    sipUsername: `sample-${id}`,
    adminPassword: 'not-sealed: never read',
  });
  return id;
}

/** A subscriber of the CloudPBX, for a user of its company. */
async function subscriberIn(ctx: Ctx, cloudPbxId: string): Promise<string> {
  const [system] = await ctx.t.db.select().from(systems).where(eq(systems.id, cloudPbxId));
  const userId = newId();
  await ctx.t.db.insert(users).values({
    id: userId,
    companyId: system.companyId,
    loginEmail: `sample-sub-${userId}@example.com`,
    passwordHash: 'not a hash: never signs in',
    roles: ['user'],
  });
  const id = newId();
  const n = 5000 + (ctx.n % 4000);
  await ctx.t.db.insert(subscribers).values({
    id,
    cloudPbxId,
    userId,
    shortNumber: String(n),
    shortNumberValue: n,
    vcpSubscriberId: `sample-${id}`,
  });
  return id;
}

export const pbxDevicesSamples: Record<string, Sample> = {
  // A generic SIP device needs no MAC address: each case makes one in the shared CloudPBX.
  createDevice: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: (id, { n }) => ({
      method: 'POST',
      url: `${PBXS}/${id}/devices`,
      payload: { description: `Matrix device ${n}`, deviceTypeId: 999999 },
    }),
  },
  listDevices: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: (id) => ({ method: 'GET', url: `${PBXS}/${id}/devices?limit=10` }),
  },
  getDevice: {
    type: 'target',
    kind: 'device',
    fresh: false,
    request: async (id, ctx) => ({ method: 'GET', url: await deviceUrl(ctx, id) }),
  },
  updateDevice: {
    type: 'target',
    kind: 'device',
    fresh: true,
    request: async (id, ctx) => ({
      method: 'PUT',
      url: await deviceUrl(ctx, id),
      payload: { description: `Renamed ${ctx.n}` },
    }),
  },
  deleteDevice: {
    type: 'target',
    kind: 'device',
    fresh: true,
    request: async (id, ctx) => ({ method: 'DELETE', url: await deviceUrl(ctx, id) }),
  },
  resetDevice: {
    type: 'target',
    kind: 'device',
    fresh: true,
    request: async (id, ctx) => ({ method: 'POST', url: await deviceUrl(ctx, id, '/reset') }),
  },
  rebootDevice: {
    type: 'target',
    kind: 'device',
    fresh: false,
    request: async (id, ctx) => ({ method: 'POST', url: await deviceUrl(ctx, id, '/reboot') }),
  },
  listDeviceRegistrations: {
    type: 'target',
    kind: 'device',
    fresh: false,
    request: async (id, ctx) => ({ method: 'GET', url: await deviceUrl(ctx, id, '/registrations') }),
  },
  // The default duration: any role that manages the device may grant it.
  grantDebugSession: {
    type: 'target',
    kind: 'device',
    fresh: true,
    request: async (id, ctx) => ({ method: 'POST', url: await deviceUrl(ctx, id, '/debug'), payload: {} }),
  },
  revokeDebugSession: {
    type: 'target',
    kind: 'device',
    fresh: true,
    request: async (id, ctx) => ({ method: 'DELETE', url: await deviceUrl(ctx, id, '/debug') }),
  },
  listProgrammableKeys: {
    type: 'target',
    kind: 'device',
    fresh: false,
    request: async (id, ctx) => ({ method: 'GET', url: await deviceUrl(ctx, id, '/keys') }),
  },
  // The matrix's device is of the generic model (no key): made a 16-key desk phone first.
  createProgrammableKey: {
    type: 'target',
    kind: 'device',
    fresh: true,
    request: async (id, ctx) => {
      await ctx.t.db.update(devices).set({ deviceTypeId: 1002 }).where(eq(devices.id, id));
      return {
        method: 'POST',
        url: await deviceUrl(ctx, id, '/keys'),
        payload: { keyNum: 1, keyType: 'speeddial', number: '+33100000000' },
      };
    },
  },
  deleteProgrammableKey: {
    type: 'target',
    kind: 'device',
    fresh: true,
    request: async (id, ctx) => {
      await ctx.t.db
        .insert(programmableKeys)
        .values({ deviceId: id, keyNum: 1, keyType: 'speeddial', keyOwner: 'admin', number: '100' })
        .onConflictDoNothing();
      return { method: 'DELETE', url: await deviceUrl(ctx, id, '/keys/1') };
    },
  },
  // A subscriber's devices: the target is the subscriber under its CloudPBX.
  assignDeviceToSubscriber: {
    type: 'target',
    kind: 'subscriber',
    fresh: true,
    request: async (id, ctx) => {
      const pbxId = await pbxOfSubscriber(ctx, id);
      const deviceId = await deviceIn(ctx, pbxId);
      return { method: 'POST', url: `${PBXS}/${pbxId}/subscribers/${id}/devices`, payload: { deviceId } };
    },
  },
  listSubscriberDevices: {
    type: 'target',
    kind: 'subscriber',
    fresh: false,
    request: async (id, ctx) => ({
      method: 'GET',
      url: `${PBXS}/${await pbxOfSubscriber(ctx, id)}/subscribers/${id}/devices`,
    }),
  },
  listSubscriberRegistrations: {
    type: 'target',
    kind: 'subscriber',
    fresh: false,
    request: async (id, ctx) => ({
      method: 'GET',
      url: `${PBXS}/${await pbxOfSubscriber(ctx, id)}/subscribers/${id}/registrations`,
    }),
  },
  // The unassignment acts on the device: assigned first to a subscriber of its CloudPBX.
  unassignDeviceFromSubscriber: {
    type: 'target',
    kind: 'device',
    fresh: true,
    request: async (id, ctx) => {
      const pbxId = await pbxOfDevice(ctx, id);
      const subscriberId = await subscriberIn(ctx, pbxId);
      await ctx.t.db.update(devices).set({ subscriberId }).where(eq(devices.id, id));
      return { method: 'DELETE', url: `${PBXS}/${pbxId}/subscribers/${subscriberId}/devices/${id}` };
    },
  },
};
