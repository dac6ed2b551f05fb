// Rules of the groups of a CloudPBX and of their forwards (document 2, Group forward, Group
// forwards, Numbering plan, Programmable key; routes.md createGroup...updateGroupForward; issue 26,
// points 1 and 2 and the contract details pinned there). A group's id is its vcpGroupId. Every
// change that allocates a short number takes the CloudPBX's row lock first, as a subscriber's
// creation does, so that subscribers and groups never share a number; the gateway is told of each
// change (emitPbxChange) last in its transaction. Decisions in docs/decisions.md, "CloudPBX:
// groups and group forwards". Every write takes the CloudPBX's row lock first (then the group's),
// as the subscribers' deletion and the devices' assignments do, so that the service keys and
// forwards they all touch are changed in one order, without deadlock.
import countries from 'i18n-iso-countries/index.js';
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { field, isOneOf } from '../../shared/json-values.ts';
import { newId } from '../../shared/ids.ts';
import { overCompany } from '../admin/companies/companies.api.ts';
import { systemsByIds } from '../systems/systems.api.ts';
import { emitPbxChange } from './pbx.events.ts';
import { lockCloudPbx, type CloudPbxRow } from './pbx.repo.ts';
import { inPlan, rangesOf } from './numbering.service.ts';
import * as repo from './groups.repo.ts';
import {
  FORWARD_DESTINATIONS,
  FORWARD_TYPES,
  GROUP_POLICIES,
  GROUP_TYPES,
  type CreateGroupInput,
  type ForwardType,
  type MemberInput,
  type UpdateGroupForwardInput,
  type UpdateGroupInput,
} from './groups.schemas.ts';

/** Document 2, Group forwards: an overflow's delay when none is given, in seconds. */
export const DEFAULT_NO_REPLY_DELAY = 20;

/** A stored value of an enumeration: itself, or the column's default if unknown. */
const known = <T extends string>(list: readonly T[], v: unknown, otherwise: T): T => (isOneOf(list, v) ? v : otherwise);

const memberOf = (m: repo.MemberView) => ({
  phoneNumberId: m.phoneNumberId,
  userId: m.userId,
  userDisplayName: m.userDisplayName,
  shortNumber: m.shortNumber,
});

/** Issue 26, point 1: a group's answer (managers and assistants for a manager-assistant group only). */
export function toApiGroup(g: repo.GroupRow, members: repo.MemberView[]) {
  const of = (role: string) => members.filter((m) => m.groupId === g.id && m.role === role).map(memberOf);
  const type = known(GROUP_TYPES, g.type, 'hunting_group');
  return {
    id: g.id,
    systemId: g.cloudPbxId,
    name: g.name,
    type,
    shortNumber: g.shortNumber,
    policy: known(GROUP_POLICIES, g.policy, 'parallel'),
    members: of('member'),
    ...(type === 'manager_assistant' ? { managers: of('manager'), assistants: of('assistant') } : {}),
  };
}

export async function readGroup(exec: Executor, cloudPbxId: string, id: string) {
  const g = (await repo.groupOfPbx(exec, cloudPbxId, id)) ?? fail('NOT_FOUND', { target: 'group', id });
  return toApiGroup(g, await repo.membersOf(exec, [g.id]));
}

export async function listGroups(exec: Executor, cloudPbxId: string, paging: Parameters<typeof repo.listGroupRows>[2]) {
  const { rows, total } = await repo.listGroupRows(exec, cloudPbxId, paging);
  const members = await repo.membersOf(
    exec,
    rows.map((r) => r.id),
  );
  return { items: rows.map((r) => toApiGroup(r, members)), total };
}

/** The event's fields of a group (no secret). */
const eventFields = (g: repo.GroupRow) => ({ id: g.id, name: g.name, type: g.type, shortNumber: g.shortNumber });

const ROLE_FIELDS = { member: 'members', manager: 'managers', assistant: 'assistants' } as const;
type Role = keyof typeof ROLE_FIELDS;
const ROLES_OF: Record<(typeof GROUP_TYPES)[number], Role[]> = {
  hunting_group: ['member'],
  manager_assistant: ['manager', 'assistant'],
};

/** The phoneNumberIds of a list, each once, in their first order. */
const idsOf = (list: MemberInput[]): string[] => [
  ...new Set(list.map((m) => (typeof m === 'string' ? m : m.phoneNumberId).trim())),
];

/**
 * Issue 26, pinned: a member, manager or assistant that is not a subscriber of this CloudPBX is
 * 400 naming its field; members belong to hunting groups, managers and assistants to
 * manager-assistant groups (a list of the other kind that is not empty: 400 naming it). Answers
 * the lists given, by role (absent: unchanged).
 */
async function memberLists(
  exec: Executor,
  cloudPbxId: string,
  type: (typeof GROUP_TYPES)[number],
  body: { members?: MemberInput[]; managers?: MemberInput[]; assistants?: MemberInput[] },
): Promise<Partial<Record<Role, string[]>>> {
  const out: Partial<Record<Role, string[]>> = {};
  for (const role of Object.keys(ROLE_FIELDS).filter((r): r is Role => r in ROLE_FIELDS)) {
    const fieldName = ROLE_FIELDS[role];
    const list = body[fieldName];
    if (list === undefined) continue;
    const ids = idsOf(list);
    if (!ROLES_OF[type].includes(role)) {
      if (ids.length) fail('GROUP_ROLE_MISMATCH', { field: fieldName, type });
      continue;
    }
    const found = await repo.subscribersOfPbx(exec, cloudPbxId, ids);
    const unknown = ids.filter((id) => !found.has(id));
    if (unknown.length) fail('GROUP_MEMBER_UNKNOWN', { field: fieldName, phoneNumberIds: unknown });
    out[role] = ids;
  }
  return out;
}

/**
 * A group's short number: of the numbering plan (400820 naming shortNumber); a hunting group needs
 * one (400850), a manager-assistant group none (issue 26, pinned). Answers the number's text, or
 * null for none.
 */
function shortNumberOf(
  pbx: CloudPbxRow,
  type: (typeof GROUP_TYPES)[number],
  given: string | number | null | undefined,
): string | null {
  const text = given === null || given === undefined ? '' : String(given).trim();
  if (text === '') {
    if (type === 'hunting_group') fail('GROUP_SHORT_NUMBER_REQUIRED', { field: 'shortNumber' });
    return null;
  }
  if (!inPlan(pbx, text))
    fail('PBX_SHORT_NUMBER_OUT_OF_PLAN', { field: 'shortNumber', shortNumber: text, ranges: rangesOf(pbx) });
  return text;
}

/** Issue 26, pinned: a short number used by a subscriber or another group of the CloudPBX is 409. */
async function checkNumberFree(tx: Executor, pbxId: string, shortNumber: string, groupId: string | null) {
  if (await repo.shortNumberHeld(tx, pbxId, Number(shortNumber), groupId))
    fail('PBX_SHORT_NUMBER_TAKEN', { field: 'shortNumber', shortNumber });
}

/** The SQLSTATE of a database error (Drizzle wraps the driver's in `cause`). */
function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 3; e = field(e, 'cause'), depth++) {
    const code = field(e, 'code');
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Issue 26, point 1, create a group: its members checked (400 naming the field), its number of the
 * plan and free among the subscribers and groups of the CloudPBX (409), under the CloudPBX's row
 * lock so that two creations cannot take one number; a manager-assistant group puts its service
 * keys on its assistants' devices; the gateway is told.
 */
export async function createGroup(db: Executor, pbx: CloudPbxRow, body: CreateGroupInput, now: Date) {
  const shortNumber = shortNumberOf(pbx, body.type, body.shortNumber);
  const id = newId();
  try {
    await db.transaction(async (tx) => {
      if (!(await lockCloudPbx(tx, pbx.id))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
      const lists = await memberLists(tx, pbx.id, body.type, body);
      if (shortNumber !== null) await checkNumberFree(tx, pbx.id, shortNumber, null);
      const row = await repo.insertGroup(tx, {
        id,
        cloudPbxId: pbx.id,
        name: body.name.trim() || body.name,
        type: body.type,
        shortNumber,
        shortNumberValue: shortNumber === null ? null : Number(shortNumber),
        policy: body.type === 'hunting_group' ? (body.policy ?? 'parallel') : 'parallel',
        creationDate: now,
      });
      for (const role of ROLES_OF[body.type]) await repo.replaceMembers(tx, id, role, lists[role] ?? []);
      await repo.syncServiceKeys(tx, pbx.id);
      await emitPbxChange(tx, pbx.id, 'group', 'create', eventFields(row));
    });
  } catch (err) {
    // The number's unique index (pbx_groups_short_number_uq), should the lock be bypassed.
    if (sqlState(err) === '23505') fail('PBX_SHORT_NUMBER_TAKEN', { field: 'shortNumber', shortNumber });
    throw err;
  }
  return readGroup(db, pbx.id, id);
}

/**
 * Issue 26, point 1, update a group: the fields given (absent: unchanged; a list given is the whole
 * new list); the type cannot change (400). A new short number follows the creation's rules; the
 * number it leaves is freed, and the forwards that reached the group by it go (issue 26, point 2).
 * Members who leave a manager-assistant group take their service keys with them.
 */
export async function updateGroup(db: Executor, pbx: CloudPbxRow, target: repo.GroupRow, body: UpdateGroupInput) {
  const type = known(GROUP_TYPES, target.type, 'hunting_group');
  if (body.type !== undefined && body.type !== type) fail('GROUP_TYPE_FIXED', { field: 'type', type });
  const shortNumber = body.shortNumber === undefined ? undefined : shortNumberOf(pbx, type, body.shortNumber);
  try {
    await db.transaction(async (tx) => {
      if (!(await lockCloudPbx(tx, pbx.id))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
      const current =
        (await repo.lockGroup(tx, pbx.id, target.id)) ?? fail('NOT_FOUND', { target: 'group', id: target.id });
      const lists = await memberLists(tx, pbx.id, type, body);
      const patch: Partial<repo.NewGroup> = {};
      if (body.name !== undefined) patch.name = body.name.trim() || body.name;
      if (body.policy !== undefined && type === 'hunting_group') patch.policy = body.policy;
      if (shortNumber !== undefined && shortNumber !== current.shortNumber) {
        if (shortNumber !== null) await checkNumberFree(tx, pbx.id, shortNumber, current.id);
        patch.shortNumber = shortNumber;
        patch.shortNumberValue = shortNumber === null ? null : Number(shortNumber);
        await repo.deleteForwardsToGroup(tx, current.id);
      }
      const row = Object.keys(patch).length ? await repo.updateGroupRow(tx, current.id, patch) : current;
      for (const role of ROLES_OF[type]) {
        const ids = lists[role];
        if (ids !== undefined) await repo.replaceMembers(tx, current.id, role, ids);
      }
      await repo.syncServiceKeys(tx, pbx.id);
      await emitPbxChange(tx, pbx.id, 'group', 'update', eventFields(row));
    });
  } catch (err) {
    if (sqlState(err) === '23505') fail('PBX_SHORT_NUMBER_TAKEN', { field: 'shortNumber', shortNumber });
    throw err;
  }
  return readGroup(db, pbx.id, target.id);
}

/**
 * Issue 26, point 1, delete a group: its members, forwards and service keys go with it, the
 * forwards of other groups reaching it too, and its DDI numbers are freed (foreign keys, in the
 * same statement); the gateway is told.
 */
export async function deleteGroup(db: Executor, pbx: CloudPbxRow, target: repo.GroupRow) {
  await db.transaction(async (tx) => {
    if (!(await lockCloudPbx(tx, pbx.id))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
    const g = (await repo.lockGroup(tx, pbx.id, target.id)) ?? fail('NOT_FOUND', { target: 'group', id: target.id });
    await repo.deleteGroupRow(tx, g.id);
    await emitPbxChange(tx, pbx.id, 'group', 'delete', eventFields(g));
  });
}

// ---------------------------------------------------------------------------------------------
// Forwards

/**
 * Document 2, Group forward: a forward as the API shows it; `name` is its destination's (a
 * subscriber's display name, a group's or welcome service's name, the external number, the
 * group's own for its voicemail), null when it has none. No row: inactive, no destination.
 */
function toApiForward(group: repo.GroupRow, type: ForwardType, v: repo.ForwardView | undefined) {
  const delay = type === 'overflow' ? DEFAULT_NO_REPLY_DELAY : null;
  if (!v)
    return {
      type,
      number: null,
      destinationType: null,
      activate: false,
      noReplyDelay: delay,
      vcpAutoAttendantId: null,
      name: null,
    };
  const f = v.row;
  const destinationType = isOneOf(FORWARD_DESTINATIONS, f.destinationType) ? f.destinationType : null;
  const name =
    destinationType === 'internalnumber'
      ? (v.subscriberName ?? v.groupName)
      : destinationType === 'externalnumber'
        ? f.number
        : destinationType === 'autoattendant'
          ? v.ivrName
          : destinationType === 'voicemail'
            ? group.name
            : null;
  return {
    type,
    number: f.number,
    destinationType,
    activate: f.activate,
    noReplyDelay: type === 'overflow' ? (f.noReplyDelay ?? DEFAULT_NO_REPLY_DELAY) : null,
    vcpAutoAttendantId: f.vcpAutoAttendantId,
    name,
  };
}

/** Issue 26, point 2 (pinned): GET forwards always lists `immediate` and `overflow`, inactive ones included. */
export async function forwardsOfGroup(exec: Executor, group: repo.GroupRow) {
  const views = await repo.forwardsOf(exec, group.id);
  return {
    name: group.name,
    groupForwards: FORWARD_TYPES.map((type) =>
      toApiForward(
        group,
        type,
        views.find((v) => v.row.type === type),
      ),
    ),
  };
}

/** Document 2, create DDI's rule for numbers: E.164 in the company's country (alpha-3), or 400 naming `number`. */
async function externalE164(exec: Executor, cloudPbxId: string, number: string): Promise<string> {
  const [system] = await systemsByIds(exec, [cloudPbxId]);
  const company = system
    ? await overCompany<{ country: string | null }>(exec, system.companyId, { country: sql`t.country` })
    : undefined;
  const alpha3 = company?.country ?? null;
  const alpha2: string | undefined = alpha3 ? countries.alpha3ToAlpha2(alpha3.toUpperCase()) : undefined;
  const region: CountryCode | undefined = alpha2 && isSupportedCountry(alpha2) ? alpha2 : undefined;
  const parsed = parsePhoneNumberFromString(number, region);
  if (!parsed || !parsed.isValid()) fail('GROUP_FORWARD_NUMBER_INVALID', { field: 'number', number, country: alpha3 });
  return parsed.number;
}

/** A forward's destination, resolved: what its row stores. */
interface Destination {
  destinationType: (typeof FORWARD_DESTINATIONS)[number] | null;
  number: string | null;
  targetSubscriberId: string | null;
  targetGroupId: string | null;
  vcpAutoAttendantId: string | null;
}

const NO_DESTINATION: Destination = {
  destinationType: null,
  number: null,
  targetSubscriberId: null,
  targetGroupId: null,
  vcpAutoAttendantId: null,
};

const given = <T>(v: T | null | undefined): v is T => v !== null && v !== undefined;

/**
 * Document 2, Group forwards, PUT: the destination the body names. `internalnumber`: `number` an
 * allocated short number of this CloudPBX (a subscriber's or another group's; the group itself
 * is a loop); `externalnumber`: `number` normalised to E.164 in the company's country;
 * `autoattendant`: `vcpAutoAttendantId` a welcome service of this CloudPBX; `voicemail`: the
 * group's voicemail. Missing pieces: 400 naming them; a destination not of this CloudPBX: 400
 * naming its field (issue 26, pinned).
 */
async function destinationOf(
  tx: Executor,
  group: repo.GroupRow,
  body: UpdateGroupForwardInput,
): Promise<Destination | undefined> {
  const number = given(body.number) ? String(body.number).trim() : '';
  if (body.destinationType === undefined) {
    if (number !== '' || given(body.vcpAutoAttendantId))
      fail('GROUP_FORWARD_DESTINATION_REQUIRED', { field: 'destinationType' });
    return undefined;
  }
  switch (body.destinationType) {
    case null:
      return NO_DESTINATION;
    case 'voicemail':
      return { ...NO_DESTINATION, destinationType: 'voicemail' };
    case 'internalnumber': {
      if (number === '')
        fail('GROUP_FORWARD_DESTINATION_REQUIRED', { field: 'number', destinationType: 'internalnumber' });
      const holder = /^[0-9]{1,10}$/.test(number)
        ? await repo.holderOfNumber(tx, group.cloudPbxId, Number(number))
        : { subscriberId: null, groupId: null, name: '' };
      if (holder.groupId === group.id) fail('GROUP_FORWARD_LOOP', { field: 'number', number });
      if (holder.subscriberId === null && holder.groupId === null)
        fail('GROUP_FORWARD_DESTINATION_UNKNOWN', { field: 'number', number });
      return {
        ...NO_DESTINATION,
        destinationType: 'internalnumber',
        number: String(Number(number)),
        targetSubscriberId: holder.subscriberId,
        targetGroupId: holder.groupId,
      };
    }
    case 'externalnumber': {
      if (number === '')
        fail('GROUP_FORWARD_DESTINATION_REQUIRED', { field: 'number', destinationType: 'externalnumber' });
      return {
        ...NO_DESTINATION,
        destinationType: 'externalnumber',
        number: await externalE164(tx, group.cloudPbxId, number),
      };
    }
    case 'autoattendant': {
      const ivrId = body.vcpAutoAttendantId?.trim() ?? '';
      if (ivrId === '')
        fail('GROUP_FORWARD_DESTINATION_REQUIRED', { field: 'vcpAutoAttendantId', destinationType: 'autoattendant' });
      const ws =
        (await repo.welcomeServiceOfPbx(tx, group.cloudPbxId, ivrId)) ??
        fail('GROUP_FORWARD_DESTINATION_UNKNOWN', { field: 'vcpAutoAttendantId', vcpAutoAttendantId: ivrId });
      return { ...NO_DESTINATION, destinationType: 'autoattendant', vcpAutoAttendantId: ws.id };
    }
  }
}

/**
 * Document 2, Group forwards, PUT (issue 26, point 2): `callForwardType` (body, or query) names the
 * forward; `activate` is required; a `destinationType` given replaces the destination (with the
 * fields its type needs), none keeps the stored one; activating needs a destination (400 naming
 * destinationType). `noReplyDelay` is the overflow's (default 20); an immediate forward has none.
 */
export async function updateForward(
  db: Executor,
  pbx: CloudPbxRow,
  target: repo.GroupRow,
  body: UpdateGroupForwardInput,
  queryType: ForwardType | undefined,
) {
  const type = body.callForwardType ?? queryType ?? fail('GROUP_FORWARD_TYPE_REQUIRED', { field: 'callForwardType' });
  try {
    const row = await db.transaction(async (tx) => {
      if (!(await lockCloudPbx(tx, pbx.id))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
      const group =
        (await repo.lockGroup(tx, pbx.id, target.id)) ?? fail('NOT_FOUND', { target: 'group', id: target.id });
      const current = (await repo.forwardsOf(tx, group.id)).find((v) => v.row.type === type)?.row;
      const destination: Destination = (await destinationOf(tx, group, body)) ?? {
        destinationType: isOneOf(FORWARD_DESTINATIONS, current?.destinationType) ? current.destinationType : null,
        number: current?.number ?? null,
        targetSubscriberId: current?.targetSubscriberId ?? null,
        targetGroupId: current?.targetGroupId ?? null,
        vcpAutoAttendantId: current?.vcpAutoAttendantId ?? null,
      };
      if (body.activate && destination.destinationType === null)
        fail('GROUP_FORWARD_DESTINATION_REQUIRED', { field: 'destinationType', activate: true });
      const noReplyDelay =
        type === 'overflow' ? (body.noReplyDelay ?? current?.noReplyDelay ?? DEFAULT_NO_REPLY_DELAY) : null;
      const stored = { groupId: group.id, type, activate: body.activate, noReplyDelay, ...destination };
      await repo.upsertForward(tx, stored);
      await emitPbxChange(tx, pbx.id, 'group', 'update', {
        id: group.id,
        forward: type,
        activate: body.activate,
        destinationType: destination.destinationType,
        number: destination.number,
        vcpAutoAttendantId: destination.vcpAutoAttendantId,
      });
      return stored;
    });
    return {
      status: `Forward ${type} of group ${target.id} updated`,
      data: {
        type,
        destinationType: row.destinationType,
        vcpAutoAttendantId: row.vcpAutoAttendantId,
        activate: row.activate,
      },
    };
  } catch (err) {
    // The destination deleted meanwhile: its foreign key refuses the forward.
    if (sqlState(err) === '23503') fail('GROUP_FORWARD_DESTINATION_UNKNOWN', { field: 'destinationType' });
    throw err;
  }
}
