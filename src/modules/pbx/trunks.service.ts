// Rules of the external trunks (document 2, External SIP trunk, External trunks, and the
// externalTrunkId rules of "Further rules: Update CloudPBX"; issue 25, points 1 and 7; decisions
// in docs/decisions.md, "CloudPBX: external trunks").
import type { Static } from 'typebox';
import type { Caller } from '../../authz/roles.ts';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { checkReference } from '../../authz/references.ts';
import { newId } from '../../shared/ids.ts';
import { field } from '../../shared/json-values.ts';
import { DEFAULT_VCP_INSTANCE, VCP_INSTANCES_BY_COUNTRY } from './pbx.instances.ts';
import type { CallForkingToPstnNumber } from './pbx.schemas.ts';
import * as repo from './trunks.repo.ts';
import type { CreateExternalTrunkBody, UpdateExternalTrunkBody } from './trunks.schemas.ts';
import type { LoadBalancerOptions } from './trunks.tables.ts';

type CreateBody = Static<typeof CreateExternalTrunkBody>;
type UpdateBody = Static<typeof UpdateExternalTrunkBody>;

const NO_LOAD_BALANCER = {
  policy: null,
  loadBalancerId: null,
  loadBalancerHostName: null,
  loadBalancerDisplayName: null,
  loadBalancerDescription: null,
};

/** Document 2, External SIP trunk. */
export function toApiTrunk(r: repo.TrunkRow) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    customSipHeader_1: r.customSipHeader1,
    customSipHeader_2: r.customSipHeader2,
    peerAuthenticationRealm: r.peerAuthenticationRealm,
    bpIds: r.bpIds,
    status: r.status === 'active' ? ('active' as const) : ('new' as const),
    peeringGroupId: r.peeringGroupId,
    resellerId: r.resellerId,
    vcpInstanceId: r.vcpInstanceId,
    trunkType: r.trunkType === 'rb_trunk' ? ('rb_trunk' as const) : ('bp_trunk' as const),
    routeInternalCallsToPeerAllowed: r.routeInternalCallsToPeerAllowed,
    callForkingToPstnNumber: r.callForkingToPstnNumber,
    loadBalancerOptions: { ...NO_LOAD_BALANCER, ...r.loadBalancerOptions },
    creationDate: r.creationDate,
  };
}

/**
 * The voice platform instances of the service (pbx.instances.ts, and those PBX_VCP_INSTANCES
 * names): a trunk lives on one of them, as the CloudPBXs that use it.
 */
function checkInstance(vcpInstanceId: string, overrides: Record<string, string>): void {
  const known = new Set([
    DEFAULT_VCP_INSTANCE,
    ...Object.values(VCP_INSTANCES_BY_COUNTRY),
    ...Object.values(overrides),
  ]);
  if (!known.has(vcpInstanceId))
    fail('TRUNK_VCP_INSTANCE_UNKNOWN', { field: 'vcpInstanceId', value: vcpInstanceId, allowed: [...known].sort() });
}

/** loadBalancerOptions of a request over the stored ones: the fields given replace theirs. */
function loadBalancerOf(
  body: UpdateBody['loadBalancerOptions'],
  current: LoadBalancerOptions | null,
): LoadBalancerOptions | null {
  if (body === undefined) return current;
  return { ...NO_LOAD_BALANCER, ...current, ...body };
}

/** Document 2, External SIP trunk (superadmin; bpIds checked as BP companies by the declaration's reference). */
export async function createTrunk(
  db: Executor,
  body: CreateBody,
  instances: Record<string, string>,
): Promise<ReturnType<typeof toApiTrunk>> {
  checkInstance(body.vcpInstanceId, instances);
  const row = await repo.insertTrunk(db, {
    id: newId(),
    name: body.name,
    description: body.description ?? null,
    customSipHeader1: body.customSipHeader_1 ?? null,
    customSipHeader2: body.customSipHeader_2 ?? null,
    peerAuthenticationRealm: body.peerAuthenticationRealm ?? null,
    bpIds: [...new Set(body.bpIds ?? [])],
    status: body.status ?? 'new',
    peeringGroupId: body.peeringGroupId ?? null,
    resellerId: body.resellerId ?? null,
    vcpInstanceId: body.vcpInstanceId,
    trunkType: body.trunkType,
    routeInternalCallsToPeerAllowed: body.routeInternalCallsToPeerAllowed ?? false,
    callForkingToPstnNumber: body.callForkingToPstnNumber ?? false,
    loadBalancerOptions: loadBalancerOf(body.loadBalancerOptions, null),
  });
  return toApiTrunk(row);
}

/**
 * Update an external trunk: the fields given. A feature the trunk loses is left by the CloudPBXs
 * that link it (document 2, update CloudPBX: call forking and routing internal calls to the peer
 * need the trunk's feature): their callForkingToPstnNumber goes back to not_available, their
 * routeInternalCallsToPeer to false, in the same transaction.
 */
export async function updateTrunk(
  db: Executor,
  target: repo.TrunkRow,
  body: UpdateBody,
  instances: Record<string, string>,
): Promise<ReturnType<typeof toApiTrunk>> {
  if (body.vcpInstanceId !== undefined && body.vcpInstanceId !== target.vcpInstanceId)
    checkInstance(body.vcpInstanceId, instances);
  return db.transaction(async (tx) => {
    const current = (await repo.lockTrunk(tx, target.id)) ?? fail('NOT_FOUND', { target: 'trunk', id: target.id });
    const patch: Partial<repo.NewTrunk> = {};
    if (body.name !== undefined) patch.name = body.name;
    if (body.description !== undefined) patch.description = body.description;
    if (body.customSipHeader_1 !== undefined) patch.customSipHeader1 = body.customSipHeader_1;
    if (body.customSipHeader_2 !== undefined) patch.customSipHeader2 = body.customSipHeader_2;
    if (body.peerAuthenticationRealm !== undefined) patch.peerAuthenticationRealm = body.peerAuthenticationRealm;
    if (body.bpIds !== undefined) patch.bpIds = [...new Set(body.bpIds)];
    if (body.status !== undefined) patch.status = body.status;
    if (body.peeringGroupId !== undefined) patch.peeringGroupId = body.peeringGroupId;
    if (body.resellerId !== undefined) patch.resellerId = body.resellerId;
    if (body.vcpInstanceId !== undefined) patch.vcpInstanceId = body.vcpInstanceId;
    if (body.trunkType !== undefined) patch.trunkType = body.trunkType;
    if (body.routeInternalCallsToPeerAllowed !== undefined)
      patch.routeInternalCallsToPeerAllowed = body.routeInternalCallsToPeerAllowed;
    if (body.callForkingToPstnNumber !== undefined) patch.callForkingToPstnNumber = body.callForkingToPstnNumber;
    if (body.loadBalancerOptions !== undefined && Object.keys(body.loadBalancerOptions).length > 0)
      patch.loadBalancerOptions = loadBalancerOf(body.loadBalancerOptions, current.loadBalancerOptions);
    if (Object.keys(patch).length === 0) return toApiTrunk(current);
    if (current.callForkingToPstnNumber && patch.callForkingToPstnNumber === false)
      await repo.resetLinkedCallForking(tx, target.id);
    if (current.routeInternalCallsToPeerAllowed && patch.routeInternalCallsToPeerAllowed === false)
      await repo.resetLinkedRouteInternalCalls(tx, target.id);
    return toApiTrunk(await repo.updateTrunkRow(tx, target.id, patch));
  });
}

/** Whether a database error is a foreign key's violation (Drizzle wraps the driver's error in `cause`). */
function isForeignKeyViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 3; e = field(e, 'cause'), depth++)
    if (field(e, 'code') === '23503') return true;
  return false;
}

/**
 * Delete an external trunk: refused (409) while a CloudPBX links it (the link's foreign key is
 * ON DELETE RESTRICT; a link made meanwhile is caught as its violation), nothing changed.
 */
export async function deleteTrunk(db: Executor, target: repo.TrunkRow): Promise<void> {
  try {
    await db.transaction(async (tx) => {
      if (!(await repo.lockTrunk(tx, target.id))) fail('NOT_FOUND', { target: 'trunk', id: target.id });
      const linked = await repo.countLinkedCloudPbxs(tx, target.id);
      if (linked > 0) fail('TRUNK_IN_USE', { externalTrunkId: target.id, cloudPbxs: linked });
      await repo.deleteTrunkRow(tx, target.id);
    });
  } catch (err) {
    if (isForeignKeyViolation(err)) fail('TRUNK_IN_USE', { externalTrunkId: target.id });
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// The link of a CloudPBX to a trunk (document 2, Further rules: Update CloudPBX; create CloudPBX
// takes the same fields).

/** What a CloudPBX holds of its link, before the request. */
export interface LinkState {
  externalTrunkId: string | null;
  outgoingPrefix: string | null;
  callForkingToPstnNumber: CallForkingToPstnNumber;
  routeInternalCallsToPeer: boolean;
}

/** What a create or update request says of the link. */
export interface LinkRequest {
  externalTrunkId?: string | null;
  outgoingPrefix?: string;
  callForkingToPstnNumber?: CallForkingToPstnNumber;
  routeInternalCallsToPeer?: boolean;
}

/** The rule of the reference externalTrunkId (createCloudPbx, updateCloudPbx). */
export const TRUNK_RULE = 'an external trunk the caller may read (a bp_admin: one whose bpIds hold its company)';

const mayLinkTrunks = (caller: Caller) => caller.roles.includes('superadmin') || caller.roles.includes('bp_admin');

/**
 * The link a request leaves on a CloudPBX, checked (document 2, update CloudPBX):
 * - externalTrunkId is set or changed only by superadmin or bp_admin (403 PBX_TRUNK_CHANGE_FORBIDDEN;
 *   a value equal to the stored one passes, as clients send back what they read);
 * - the trunk exists, and a bp_admin links only a trunk its company may use (bpIds holds it):
 *   else 400 PBX_TRUNK_NOT_FOUND naming externalTrunkId (a trunk out of reach is told apart from
 *   no missing one);
 * - a linked CloudPBX has an outgoing prefix, set earlier or in the same request (400 naming outgoingPrefix);
 * - callForkingToPstnNumber `activated` / `not_activated` only with a trunk that has call forking,
 *   routeInternalCallsToPeer true only with a trunk that allows it (400 naming the field);
 * - unlinking (null), or linking a trunk without the feature, puts a stored value the trunk no
 *   longer allows back to not_available / false (docs/decisions.md).
 * In the change's transaction (`lock`) the trunk is read FOR SHARE: its deletion or update waits
 * for the link's commit. The creation's preparation reads it unlocked (no transaction is open).
 */
export async function checkTrunkLink(
  exec: Executor,
  caller: Caller,
  current: LinkState,
  body: LinkRequest,
  opts: { lock: boolean },
): Promise<Pick<LinkState, 'externalTrunkId' | 'callForkingToPstnNumber' | 'routeInternalCallsToPeer'>> {
  const changes = body.externalTrunkId !== undefined && body.externalTrunkId !== current.externalTrunkId;
  // A trunk the caller may not read is refused as the declared reference is, whoever asks (400005,
  // the same for a missing trunk): the role's refusal below says nothing of another BP's trunks.
  if (changes && typeof body.externalTrunkId === 'string')
    await checkReference(exec, caller, 'externalTrunkId', 'trunk', [body.externalTrunkId], { rule: TRUNK_RULE });
  if (changes && !mayLinkTrunks(caller))
    fail('PBX_TRUNK_CHANGE_FORBIDDEN', { field: 'externalTrunkId', roles: ['superadmin', 'bp_admin'] });
  const trunkId = body.externalTrunkId === undefined ? current.externalTrunkId : body.externalTrunkId;
  const trunk = trunkId === null ? undefined : await repo.readTrunk(exec, trunkId, opts.lock);
  if (trunkId !== null) {
    const reachable =
      trunk !== undefined &&
      (!changes || caller.roles.includes('superadmin') || trunk.bpIds.includes(caller.companyId));
    if (!reachable) fail('PBX_TRUNK_NOT_FOUND', { field: 'externalTrunkId', id: trunkId });
    if ((body.outgoingPrefix ?? current.outgoingPrefix) === null)
      fail('PBX_TRUNK_NEEDS_OUTGOING_PREFIX', { field: 'outgoingPrefix', externalTrunkId: trunkId });
  }
  const forking = trunk?.callForkingToPstnNumber ?? false;
  const routing = trunk?.routeInternalCallsToPeerAllowed ?? false;
  if (body.callForkingToPstnNumber !== undefined && body.callForkingToPstnNumber !== 'not_available' && !forking)
    fail('PBX_CALL_FORKING_NOT_AVAILABLE', {
      field: 'callForkingToPstnNumber',
      value: body.callForkingToPstnNumber,
      externalTrunkId: trunkId,
    });
  if (body.routeInternalCallsToPeer === true && !routing)
    fail('PBX_ROUTE_INTERNAL_CALLS_NOT_ALLOWED', { field: 'routeInternalCallsToPeer', externalTrunkId: trunkId });
  const callForking = body.callForkingToPstnNumber ?? current.callForkingToPstnNumber;
  return {
    externalTrunkId: trunkId,
    callForkingToPstnNumber: forking ? callForking : 'not_available',
    routeInternalCallsToPeer: routing ? (body.routeInternalCallsToPeer ?? current.routeInternalCallsToPeer) : false,
  };
}
