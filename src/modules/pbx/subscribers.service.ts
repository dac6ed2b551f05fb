// Rules of the subscribers of a CloudPBX (document 2, Subscribers and the subscriber operations of
// "Operations whose method and path are not given"; routes.md, CloudPBX; issue 25, point 4).
// A subscriber is a user of the CloudPBX's company with a short number of its numbering plan, made
// on the voice platform (ports.voice) under the company's tenant; its id is its `phoneNumberId`.
// Decisions in docs/decisions.md, "CloudPBX: subscribers and the numbering plan".
import type { Static } from 'typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../../authz/roles.ts';
import { checkReference } from '../../authz/references.ts';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { PortFailure } from '../../ports/control.ts';
import type { VoicePort } from '../../ports/voice/voice.port.ts';
import { field, isOneOf } from '../../shared/json-values.ts';
import { newId } from '../../shared/ids.ts';
import { holdsServiceLicence } from '../commerce/commerce.api.ts';
import { systemsByIds } from '../systems/systems.api.ts';
import { emitPbxChange } from './pbx.events.ts';
import { lockCloudPbx, type CloudPbxRow } from './pbx.repo.ts';
import { syncServiceKeys } from './groups.repo.ts';
import { inPlan, rangesOf } from './numbering.service.ts';
import * as repo from './subscribers.repo.ts';
import {
  OVERFLOW_VALUES,
  RECORDING_PROFILES,
  SUBSCRIBER_CALL_FORWARD,
  SUBSCRIBER_PERMISSIONS,
  SUBSCRIBER_RESTRICTIONS,
  type CreateSubscriberInput,
  type UpdateBarringBody,
  type UpdateOverflowBody,
  type UpdateSipHeadersBody,
} from './subscribers.schemas.ts';
import { disableAccount } from './devices.service.ts';
import { deviceIdsOf } from './devices.repo.ts';
import type { SubscriberRow, SubscriberView } from './subscribers.repo.ts';

/** A stored value of an enumeration (the columns are text): itself, or the column's default if unknown. */
const known = <T extends string>(list: readonly T[], v: unknown, otherwise: T): T => (isOneOf(list, v) ? v : otherwise);

/** Document 2, update subscriber overflow: `activate` is whether the overflow is not `disabled`. */
export function overflowOf(s: SubscriberRow) {
  const o = s.overflow;
  const value = known(OVERFLOW_VALUES, o.value, 'default');
  return {
    value,
    activate: value !== 'disabled',
    unavailableOverflow: known(OVERFLOW_VALUES, o.unavailableOverflow, 'default'),
    noReplyDelay: o.noReplyDelay,
  };
}

export const sipHeadersOf = (s: SubscriberRow) => ({
  customSipHeader_1: s.customSipHeader1,
  customSipHeader_2: s.customSipHeader2,
});

export const barringOf = (s: SubscriberRow) => ({
  permissions: known(SUBSCRIBER_PERMISSIONS, s.barringPermission, 'int_nat_local'),
  restrictions: known(SUBSCRIBER_RESTRICTIONS, s.barringRestriction, 'default'),
});

export const callForwardOf = (s: SubscriberRow) => ({
  externalCallForward: known(SUBSCRIBER_CALL_FORWARD, s.externalCallForward, 'company_policy'),
});

const recordingOf = (s: SubscriberRow) => known(RECORDING_PROFILES, s.recordingProfile, 'none');

/** A subscriber as the API shows it (docs/decisions.md: the shape). */
export function toApiSubscriber(v: SubscriberView) {
  const s = v.row;
  return {
    id: s.id,
    phoneNumberId: s.id,
    systemId: s.cloudPbxId,
    userId: s.userId,
    userDisplayName: v.names?.displayName ?? '',
    firstName: v.names?.firstName ?? '',
    lastName: v.names?.lastName ?? '',
    loginEmail: v.names?.loginEmail ?? '',
    shortNumber: s.shortNumber,
    ...sipHeadersOf(s),
    barringOptions: barringOf(s),
    callForwardOptions: callForwardOf(s),
    overflow: overflowOf(s),
    recordingProfile: recordingOf(s),
    creationDate: s.creationDate,
    devices: v.devices,
  };
}

/** The event's fields of a subscriber (issue 25, point 9): no secret. */
const eventFields = (s: SubscriberRow) => ({ id: s.id, userId: s.userId, shortNumber: s.shortNumber });

/** The SQLSTATE and constraint of a database error (Drizzle wraps the driver's in `cause`). */
function uniqueViolation(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 3; e = field(e, 'cause'), depth++) {
    if (field(e, 'code') === '23505') {
      const c = field(e, 'constraint');
      return typeof c === 'string' ? c : '';
    }
  }
  return undefined;
}

export const shortNumberText = (v: string | number) => String(v).trim();

/** What the creation's preparation made: the subscriber on the voice platform. */
export interface PreparedSubscriber {
  vcpSubscriberId: string;
  shortNumber: string;
}

/**
 * The checks of a creation, before the voice platform is asked and again in the transaction:
 * one subscriber per user, the number free in the CloudPBX (409 each).
 */
async function checkFree(exec: Executor, pbx: CloudPbxRow, userId: string, shortNumber: string): Promise<void> {
  const c = await repo.creationConflicts(exec, pbx.id, userId, Number(shortNumber));
  if (c.userTaken) fail('PBX_USER_ALREADY_SUBSCRIBER', { userId });
  if (c.numberTaken) fail('PBX_SHORT_NUMBER_TAKEN', { field: 'shortNumber', shortNumber });
}

/**
 * Issue 25, point 4, create a subscriber, before its transaction: the user is of the CloudPBX's
 * company (a reference: 400 UNKNOWN_REFERENCE otherwise), the number is of the numbering plan
 * (400 naming shortNumber), the user holds a licence of an active subscription other than the
 * default offer (409), he is no subscriber yet and the number is free (409); then the subscriber
 * is made on the voice platform (502 when it refuses). No transaction is open while the platform
 * answers; the command undoes the platform's subscriber if it fails.
 */
export async function prepareSubscriber(
  exec: Executor,
  caller: Caller,
  voice: VoicePort,
  pbx: CloudPbxRow,
  body: CreateSubscriberInput,
): Promise<PreparedSubscriber> {
  const [system] = await systemsByIds(exec, [pbx.id]);
  if (!system) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
  await checkReference(exec, caller, 'userId', 'user', [body.userId], {
    rule: 'a user of the CloudPBX’s company that the caller may read',
    where: { companyId: system.companyId },
  });
  const shortNumber = shortNumberText(body.shortNumber);
  if (!inPlan(pbx, shortNumber))
    fail('PBX_SHORT_NUMBER_OUT_OF_PLAN', { field: 'shortNumber', shortNumber, ranges: rangesOf(pbx) });
  if (!(await holdsServiceLicence(exec, body.userId))) fail('PBX_SUBSCRIBER_NO_LICENCE', { userId: body.userId });
  await checkFree(exec, pbx, body.userId, shortNumber);
  try {
    const vcp = await voice.createSubscriber({ tenantId: pbx.vcpTenantId, userId: body.userId, shortNumber });
    return { vcpSubscriberId: vcp.id, shortNumber };
  } catch (err) {
    if (err instanceof PortFailure) fail('PBX_VOICE_PLATFORM_FAILED', { operation: 'createSubscriber' });
    throw err;
  }
}

/**
 * Issue 25, point 4, create a subscriber: its row and its event in one transaction. Two creations
 * at once for the same user or number both pass the checks before it: the unique indexes
 * (pbx_subscribers_user_uq, pbx_subscribers_short_number_uq) refuse the second (409). A group's
 * number is in another table (issue 26: one numbering plan for both): the CloudPBX's row lock,
 * which a group's creation takes too, serialises the check and the insert.
 */
export async function createSubscriber(
  db: Executor,
  pbx: CloudPbxRow,
  body: CreateSubscriberInput,
  prepared: PreparedSubscriber,
  now: Date,
) {
  const id = newId();
  try {
    await db.transaction(async (tx) => {
      if (!(await lockCloudPbx(tx, pbx.id))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
      await checkFree(tx, pbx, body.userId, prepared.shortNumber);
      const row = await repo.insertSubscriber(tx, {
        id,
        cloudPbxId: pbx.id,
        userId: body.userId,
        shortNumber: prepared.shortNumber,
        shortNumberValue: Number(prepared.shortNumber),
        vcpSubscriberId: prepared.vcpSubscriberId,
        creationDate: now,
      });
      await emitPbxChange(tx, pbx.id, 'subscriber', 'create', eventFields(row));
    });
  } catch (err) {
    const constraint = uniqueViolation(err);
    if (constraint === 'pbx_subscribers_user_uq') fail('PBX_USER_ALREADY_SUBSCRIBER', { userId: body.userId });
    if (constraint !== undefined)
      fail('PBX_SHORT_NUMBER_TAKEN', { field: 'shortNumber', shortNumber: prepared.shortNumber });
    throw err;
  }
  return readSubscriber(db, pbx.id, id);
}

/**
 * A creation that failed after the platform's subscriber was made: it goes. In a transaction of
 * the caller's (an Idempotency-Key's), the platform is asked once that transaction has ended.
 */
export async function undoSubscriber(
  voice: VoicePort,
  vcpSubscriberId: string,
  log: FastifyBaseLogger,
  inCallersTransaction: boolean,
): Promise<void> {
  const undo = voice.deleteSubscriber(vcpSubscriberId).catch((err: unknown) => {
    log.error({ err, vcpSubscriberId }, 'pbx: the voice platform subscriber of a failed creation could not be deleted');
  });
  if (!inCallersTransaction) await undo;
}

export async function readSubscriber(exec: Executor, cloudPbxId: string, id: string) {
  const v = (await repo.viewSubscriber(exec, cloudPbxId, id)) ?? fail('NOT_FOUND', { target: 'subscriber', id });
  return toApiSubscriber(v);
}

/**
 * Deletes the subscriber on the voice platform; one the platform no longer has (a delete that
 * failed after it, a subscriber made elsewhere) counts as deleted. A refusal: 502.
 */
async function deleteOnPlatform(voice: VoicePort, tenantId: string, vcpSubscriberId: string): Promise<void> {
  try {
    await voice.deleteSubscriber(vcpSubscriberId);
  } catch (err) {
    if (!(err instanceof PortFailure)) throw err;
    const still = await voice.listSubscribers(tenantId).catch(() => undefined);
    if (!still || still.some((s) => s.id === vcpSubscriberId))
      fail('PBX_VOICE_PLATFORM_FAILED', { operation: 'deleteSubscriber' });
  }
}

/**
 * Issue 25, point 4, delete a subscriber: first on the voice platform (no transaction open while
 * it answers; a refusal changes nothing), then in one transaction its row, its DDI numbers
 * unassigned (their user and XMPP addresses cleared) and its SIP devices unassigned (the foreign
 * key sets their subscriber to null), and its event.
 */
export async function deleteSubscriber(db: Executor, voice: VoicePort, pbx: CloudPbxRow, target: SubscriberRow) {
  // Issue 25, point 8: its devices become unassigned, and an unassigned device's account is
  // disabled (as unassignDeviceFromSubscriber does), before anything else changes.
  for (const deviceId of await deviceIdsOf(db, { subscriberId: target.id })) await disableAccount(voice, deviceId);
  await deleteOnPlatform(voice, pbx.vcpTenantId, target.vcpSubscriberId);
  await db.transaction(async (tx) => {
    // Issue 26: the CloudPBX's lock first, as the changes of its groups take it.
    if (!(await lockCloudPbx(tx, pbx.id))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
    const s =
      (await repo.lockSubscriber(tx, pbx.id, target.id)) ?? fail('NOT_FOUND', { target: 'subscriber', id: target.id });
    await repo.unassignUserDdis(tx, pbx.id, s.userId);
    await repo.deleteSubscriberRow(tx, s.id);
    // Issue 26, point 1: it left its groups (foreign key); the service keys it held as a manager,
    // or its devices held as an assistant, go.
    await syncServiceKeys(tx, pbx.id);
    await emitPbxChange(tx, pbx.id, 'subscriber', 'delete', eventFields(s));
  });
}

/** One change of a subscriber's options, with its event, in one transaction; the row after it. */
async function changeSubscriber(
  db: Executor,
  pbx: CloudPbxRow,
  target: SubscriberRow,
  patchOf: (current: SubscriberRow) => Partial<repo.NewSubscriber>,
): Promise<SubscriberRow> {
  return db.transaction(async (tx) => {
    const current =
      (await repo.lockSubscriber(tx, pbx.id, target.id)) ?? fail('NOT_FOUND', { target: 'subscriber', id: target.id });
    const patch = patchOf(current);
    const row = Object.keys(patch).length
      ? ((await repo.updateSubscriberRow(tx, current.id, patch)) ?? current)
      : current;
    await emitPbxChange(tx, pbx.id, 'subscriber', 'update', eventFields(row));
    return row;
  });
}

/** Document 2, update subscriber SIP headers: the headers given (absent: unchanged; null clears). */
export async function updateSipHeaders(
  db: Executor,
  pbx: CloudPbxRow,
  target: SubscriberRow,
  body: Static<typeof UpdateSipHeadersBody>,
) {
  const row = await changeSubscriber(db, pbx, target, () => ({
    ...(body.customSipHeader_1 !== undefined ? { customSipHeader1: body.customSipHeader_1 } : {}),
    ...(body.customSipHeader_2 !== undefined ? { customSipHeader2: body.customSipHeader_2 } : {}),
  }));
  return sipHeadersOf(row);
}

/** A barring id sent alone or as an array of one. */
const oneOf = <T extends string>(v: T | T[]): T => (Array.isArray(v) ? v[0] : v);

/** Document 2, update subscriber barring: the ids given (absent: unchanged). */
export async function updateBarring(
  db: Executor,
  pbx: CloudPbxRow,
  target: SubscriberRow,
  body: Static<typeof UpdateBarringBody>,
) {
  const row = await changeSubscriber(db, pbx, target, () => ({
    ...(body.permissions !== undefined ? { barringPermission: oneOf(body.permissions) } : {}),
    ...(body.restrictions !== undefined ? { barringRestriction: oneOf(body.restrictions) } : {}),
  }));
  return barringOf(row);
}

/** Document 2, update subscriber external call forward. */
export async function updateCallForward(
  db: Executor,
  pbx: CloudPbxRow,
  target: SubscriberRow,
  externalCallForward: string,
) {
  return callForwardOf(await changeSubscriber(db, pbx, target, () => ({ externalCallForward })));
}

/** Document 2, update subscriber overflow: value and unavailableOverflow; noReplyDelay absent: unchanged. */
export async function updateOverflow(
  db: Executor,
  pbx: CloudPbxRow,
  target: SubscriberRow,
  body: Static<typeof UpdateOverflowBody>,
) {
  const row = await changeSubscriber(db, pbx, target, (current) => ({
    overflow: {
      value: body.value,
      unavailableOverflow: body.unavailableOverflow,
      noReplyDelay: body.noReplyDelay ?? current.overflow.noReplyDelay,
    },
  }));
  return overflowOf(row);
}

/** Document 2, set a subscriber's recording: `{recordingProfile}`. */
export async function setRecording(db: Executor, pbx: CloudPbxRow, target: SubscriberRow, recordingProfile: string) {
  const row = await changeSubscriber(db, pbx, target, () => ({ recordingProfile }));
  return { recordingProfile: recordingOf(row) };
}
