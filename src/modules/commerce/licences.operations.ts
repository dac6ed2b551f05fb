// Licences (route table, Users: assignUserLicence, unassignUserLicence; document 1, licence
// counters). The target is the user of the path; the subscription is a second resource, on
// which the caller needs grants of his own (commerce.policy.ts).
import { Type } from 'typebox';
import type { AnyOperation } from '../../http/operation.ts';
import { defineOperation } from '../../http/operation.ts';
import { Licence, UserSubscriptionParams } from './licences.schemas.ts';
import * as service from './licences.service.ts';

const tag = 'Licences';
const P = '/admin/v1.0/users/:userId/profiles/subscriptions/:subscriptionId';
const userTarget = { kind: 'user', from: 'params', field: 'userId' } as const;
const subscriptionSecond = { subscription: { kind: 'subscription', from: 'params', field: 'subscriptionId' } } as const;

export const assignUserLicence = defineOperation({
  operationId: 'assignUserLicence',
  errors: ['LICENCE_LIMIT_REACHED', 'LICENCE_NOT_FOR_USER', 'SUBSCRIPTION_NOT_ACTIVE'],
  method: 'POST',
  path: P,
  tag,
  summary: 'Assign a licence of a subscription to a user',
  description:
    "An active subscription of the user's company, or of the BP IR company his company is an End Customer of; 409 when every licence (maxNumberUsers) is taken. A user who already holds one gets it back unchanged.",
  params: UserSubscriptionParams,
  response: Licence,
  envelope: 'status',
  target: userTarget,
  second: subscriptionSecond,
  command: async (ctx, { params }) => ({
    status: `Licence of subscription ${params.subscriptionId} assigned to user ${ctx.target.id}`,
    data: await service.assignLicence(ctx.db, ctx.target, params.subscriptionId, ctx.now),
  }),
});

export const unassignUserLicence = defineOperation({
  operationId: 'unassignUserLicence',
  method: 'DELETE',
  path: P,
  tag,
  summary: "Take back a user's licence of a subscription",
  description: 'A user who holds none is left as he is (the answer says so).',
  params: UserSubscriptionParams,
  response: Type.Array(Type.Never()),
  envelope: 'status',
  target: userTarget,
  second: subscriptionSecond,
  command: async (ctx, { params }) => {
    const removed = await service.unassignLicence(ctx.db, ctx.target.id, params.subscriptionId);
    return {
      status: removed
        ? `Licence of subscription ${params.subscriptionId} unassigned from user ${ctx.target.id}`
        : `User ${ctx.target.id} holds no licence of subscription ${params.subscriptionId}`,
      data: [],
    };
  },
});

export const licencesOperations: AnyOperation[] = [assignUserLicence, unassignUserLicence];
