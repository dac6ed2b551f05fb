// Sample requests of the DDI numbers of a CloudPBX (document 2, Phone numbers (DDI); issue 25,
// point 3), for the authorisation matrix (see ./types.ts). A DDI target sits in a CloudPBX of its
// own (the matrix's producer); its path names that PBX, found in the database.
import { eq, sql } from 'drizzle-orm';
import { newId } from '../../../src/shared/ids.ts';
import { ddis } from '../../../src/modules/pbx/ddis.tables.ts';
import { subscribers } from '../../../src/modules/pbx/subscribers.tables.ts';
import { systems } from '../../../src/modules/systems/systems.tables.ts';
import { users } from '../../../src/modules/admin/users/users.tables.ts';
import type { Ctx, Req, Sample } from './types.ts';

const PBXS = '/api/svc/vcpprovisioning/v1.0/cloudpbxs';
const ddisOf = (systemId: string) => `${PBXS}/${systemId}/phone-numbers/ddi`;

/** The CloudPBX of a DDI (the path names it). */
async function pbxOf(ctx: Ctx, ddiId: string): Promise<string> {
  const [d] = await ctx.t.db.select({ cloudPbxId: ddis.cloudPbxId }).from(ddis).where(eq(ddis.id, ddiId));
  return d?.cloudPbxId ?? 'none';
}

/** Makes the user a subscriber of the CloudPBX (moved there if he is one of another that a sample made). */
async function subscribe(ctx: Ctx, cloudPbxId: string, userId: string): Promise<void> {
  const n = 3000 + ctx.n;
  await ctx.t.db
    .insert(subscribers)
    .values({
      id: newId(),
      cloudPbxId,
      userId,
      shortNumber: String(n),
      shortNumberValue: n,
      vcpSubscriberId: `vcp-${userId}`,
    })
    .onConflictDoUpdate({
      target: subscribers.userId,
      set: { cloudPbxId, shortNumber: String(n), shortNumberValue: n },
      // Only a subscriber these samples made (3000 and up) moves: another tenant's (the isolation
      // test's B) stays where it is, and the request is then refused as it should be.
      setWhere: sql`${subscribers.shortNumberValue} >= 3000`,
    });
}

/**
 * A user of the DDI's PBX's company, a subscriber of that PBX: every caller who may act on the
 * DDI may read him (the assignment's second resource is then in reach).
 */
async function subscriberOfPbx(ctx: Ctx, cloudPbxId: string): Promise<string> {
  const [s] = await ctx.t.db.select({ companyId: systems.companyId }).from(systems).where(eq(systems.id, cloudPbxId));
  const id = newId();
  await ctx.t.db.insert(users).values({
    id,
    companyId: s.companyId,
    loginEmail: `ddi-${id}@example.com`,
    passwordHash: 'not-a-hash: never signs in',
    firstName: 'Ddi',
    lastName: `U${id.slice(-6)}`,
    roles: ['user'],
  });
  await subscribe(ctx, cloudPbxId, id);
  return id;
}

export const pbxDdisSamples: Record<string, Sample> = {
  listDdis: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: false,
    request: (id): Req => ({ method: 'GET', url: `${ddisOf(id)}?limit=10` }),
  },
  createDdi: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    // A French number unique to the case (the matrix's own DDIs are +3319...).
    request: (id, { n }): Req => ({
      method: 'POST',
      url: ddisOf(id),
      payload: { number: `+332${String(n).padStart(8, '0')}` },
    }),
  },
  deleteDdi: {
    type: 'target',
    kind: 'ddi',
    fresh: true,
    request: async (id, ctx): Promise<Req> => ({ method: 'DELETE', url: `${ddisOf(await pbxOf(ctx, id))}/${id}` }),
  },
  setDefaultDdi: {
    type: 'target',
    kind: 'ddi',
    fresh: true,
    request: async (id, ctx): Promise<Req> => ({
      method: 'POST',
      url: `${ddisOf(await pbxOf(ctx, id))}/${id}/default`,
    }),
  },
  assignDdiToUser: {
    type: 'target',
    kind: 'ddi',
    fresh: true,
    request: async (id, ctx): Promise<Req> => {
      const pbx = await pbxOf(ctx, id);
      return { method: 'POST', url: `${ddisOf(pbx)}/${id}/users/${await subscriberOfPbx(ctx, pbx)}` };
    },
    second: {
      user: {
        request: async (id, userId, ctx): Promise<Req> => {
          const pbx = await pbxOf(ctx, id);
          await subscribe(ctx, pbx, userId);
          return { method: 'POST', url: `${ddisOf(pbx)}/${id}/users/${userId}` };
        },
      },
    },
  },
  unassignDdiFromUser: {
    type: 'target',
    kind: 'ddi',
    fresh: true,
    request: async (id, ctx): Promise<Req> => {
      const pbx = await pbxOf(ctx, id);
      const userId = await subscriberOfPbx(ctx, pbx);
      await ctx.t.db.update(ddis).set({ userId }).where(eq(ddis.id, id));
      return { method: 'DELETE', url: `${ddisOf(pbx)}/${id}/users/${userId}` };
    },
    // An unassigned DDI is answered as it is: the user of the path needs no setup.
    second: {
      user: {
        request: async (id, userId, ctx): Promise<Req> => ({
          method: 'DELETE',
          url: `${ddisOf(await pbxOf(ctx, id))}/${id}/users/${userId}`,
        }),
      },
    },
  },
};
