// Sample requests of the subscribers of a CloudPBX and of its numbering plan (issue 25, points 2
// and 4), for the authorisation matrix (see ./types.ts). A subscriber's sample finds its CloudPBX
// with a query; the creation gives the matrix's CloudPBX a numbering plan and makes a licensed
// user of its company.
import { eq } from 'drizzle-orm';
import { newId } from '../../../src/shared/ids.ts';
import { subscribers } from '../../../src/modules/pbx/subscribers.tables.ts';
import { cloudPbxs } from '../../../src/modules/pbx/pbx.tables.ts';
import { systems } from '../../../src/modules/systems/systems.tables.ts';
import { licences, offers, subscriptions } from '../../../src/modules/commerce/commerce.tables.ts';
import { makeUser } from '../../support/factories.ts';
import type { Ctx, Req, Sample } from './types.ts';

const PBXS = '/api/svc/vcpprovisioning/v1.0/cloudpbxs';

async function pbxOf(ctx: Ctx, subscriberId: string): Promise<string> {
  const [s] = await ctx.t.db
    .select({ cloudPbxId: subscribers.cloudPbxId })
    .from(subscribers)
    .where(eq(subscribers.id, subscriberId));
  return s?.cloudPbxId ?? 'none';
}

/** A user of the CloudPBX's company holding a licence of an active subscription (not the default offer). */
async function licensedUserOf(ctx: Ctx, cloudPbxId: string): Promise<string> {
  const [system] = await ctx.t.db
    .select({ companyId: systems.companyId })
    .from(systems)
    .where(eq(systems.id, cloudPbxId));
  const companyId = system?.companyId ?? 'none';
  const user = await makeUser(ctx.t, companyId);
  const offerId = newId();
  await ctx.t.db.insert(offers).values({ id: offerId, name: `Matrix offer ${ctx.n}`, businessModel: 'nb_users' });
  const subscriptionId = newId();
  await ctx.t.db.insert(subscriptions).values({ id: subscriptionId, companyId, offerId, maxNumberUsers: 10 });
  await ctx.t.db.insert(licences).values({ subscriptionId, userId: user.id, userCompanyId: companyId });
  return user.id;
}

/** An operation on one subscriber (under its CloudPBX). */
function onSubscriber(
  suffix: string,
  fresh: boolean,
  method: 'GET' | 'PUT' | 'DELETE' = 'GET',
  payload?: unknown,
): Sample {
  return {
    type: 'target',
    kind: 'subscriber',
    fresh,
    ...(payload !== undefined ? { defaultBody: payload } : {}),
    request: async (id: string, ctx: Ctx): Promise<Req> => ({
      method,
      url: `${PBXS}/${await pbxOf(ctx, id)}/subscribers/${id}${suffix}`,
      ...(payload !== undefined ? { payload } : {}),
    }),
  };
}

/** A read of a CloudPBX's sub-path. */
const onPbx = (path: string): Sample => ({
  type: 'target',
  kind: 'cloudpbx',
  fresh: false,
  request: (id: string) => ({ method: 'GET', url: `${PBXS}/${id}/${path}` }),
});

export const pbxSubscribersSamples: Record<string, Sample> = {
  createSubscriber: {
    type: 'target',
    kind: 'cloudpbx',
    fresh: true,
    defaultBody: { userId: 'x', shortNumber: '20001' },
    request: async (id: string, ctx: Ctx): Promise<Req> => {
      await ctx.t.db
        .update(cloudPbxs)
        .set({ numberingPrefixes: ['2'], numberingDigits: 4 })
        .where(eq(cloudPbxs.id, id));
      return {
        method: 'POST',
        url: `${PBXS}/${id}/subscribers`,
        payload: { userId: await licensedUserOf(ctx, id), shortNumber: '20001' },
      };
    },
  },
  listSubscribers: onPbx('subscribers'),
  getSubscriber: onSubscriber('', false),
  deleteSubscriber: onSubscriber('', true, 'DELETE'),
  getSubscriberSipHeaders: onSubscriber('/sip-headers', false),
  updateSubscriberSipHeaders: onSubscriber('/sip-headers', true, 'PUT', { customSipHeader_1: 'X-Matrix' }),
  getSubscriberBarring: onSubscriber('/barring-options', false),
  updateSubscriberBarring: onSubscriber('/barring-options', true, 'PUT', { permissions: 'local' }),
  getSubscriberCallForward: onSubscriber('/call-forward-options', false),
  updateSubscriberCallForward: onSubscriber('/call-forward-options', true, 'PUT', {
    externalCallForward: 'authorized',
  }),
  getSubscriberOverflow: onSubscriber('/overflow', false),
  updateSubscriberOverflow: onSubscriber('/overflow', true, 'PUT', { value: 'custom', unavailableOverflow: 'default' }),
  setSubscriberRecording: onSubscriber('/recording', true, 'PUT', { recordingProfile: 'all' }),
  getNumberingPlan: onPbx('numbering-plan'),
  listFreeInternalNumbers: onPbx('phone-numbers/free?limit=5'),
};
