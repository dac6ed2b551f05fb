// SQL of the groups of a CloudPBX (pbx_groups, pbx_group_members, pbx_group_forwards) and of the
// `service` monitor keys their manager-assistant groups put on the assistants' devices
// (pbx_programmable_keys.service_group_id). The users' names are read through the users
// module's face (userNamesOf).
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw.ts';
import type { Paging } from '../../http/paging.ts';
import { userNamesOf } from '../admin/users/users.api.ts';
import { groupForwards, groupMembers, groups } from './groups.tables.ts';
import { subscribers } from './subscribers.tables.ts';
import { devices, programmableKeys } from './devices.tables.ts';
import { ivrs } from './ivrs.tables.ts';
import { storedDeviceModel } from './options.data.ts';
import type { GROUP_SORT_FIELDS } from './groups.schemas.ts';

export type GroupRow = typeof groups.$inferSelect;
export type NewGroup = typeof groups.$inferInsert;
export type ForwardRow = typeof groupForwards.$inferSelect;
export type NewForward = typeof groupForwards.$inferInsert;

/** A subscriber of a group with what its answer shows. */
export interface MemberView {
  groupId: string;
  role: string;
  phoneNumberId: string;
  userId: string;
  userDisplayName: string;
  shortNumber: string;
}

const displayName = sql<string>`coalesce((${userNamesOf(subscribers.userId)})->>'displayName', '')`;

const ofPbx = (cloudPbxId: string, id: string) => and(eq(groups.id, id), eq(groups.cloudPbxId, cloudPbxId));

export async function groupOfPbx(exec: Executor, cloudPbxId: string, id: string): Promise<GroupRow | undefined> {
  const [r] = await exec.select().from(groups).where(ofPbx(cloudPbxId, id));
  return r;
}

/** The group's row locked until the transaction ends (one change at a time). */
export async function lockGroup(exec: Executor, cloudPbxId: string, id: string): Promise<GroupRow | undefined> {
  const [r] = await exec.select().from(groups).where(ofPbx(cloudPbxId, id)).for('update');
  return r;
}

/** The members, managers and assistants of the groups, in their order. */
export async function membersOf(exec: Executor, groupIds: string[]): Promise<MemberView[]> {
  if (groupIds.length === 0) return [];
  return exec
    .select({
      groupId: groupMembers.groupId,
      role: groupMembers.role,
      phoneNumberId: subscribers.id,
      userId: subscribers.userId,
      userDisplayName: displayName,
      shortNumber: subscribers.shortNumber,
    })
    .from(groupMembers)
    .innerJoin(subscribers, eq(subscribers.id, groupMembers.subscriberId))
    .where(inArray(groupMembers.groupId, groupIds))
    .orderBy(asc(groupMembers.groupId), asc(groupMembers.role), asc(groupMembers.position));
}

const SORT = {
  name: groups.name,
  shortNumber: groups.shortNumberValue,
  type: groups.type,
  creationDate: groups.creationDate,
};

export async function listGroupRows(
  exec: Executor,
  cloudPbxId: string,
  p: Paging<(typeof GROUP_SORT_FIELDS)[number]>,
): Promise<{ rows: GroupRow[]; total: number }> {
  const where = eq(groups.cloudPbxId, cloudPbxId);
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec
      .select()
      .from(groups)
      .where(where)
      .orderBy(dir(SORT[p.sortField]), dir(groups.id))
      .limit(p.limit)
      .offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(groups)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}

/** Whether a subscriber or another group of the CloudPBX holds the number. */
export async function shortNumberHeld(
  exec: Executor,
  cloudPbxId: string,
  value: number,
  exceptGroupId: string | null,
): Promise<boolean> {
  const [r] = await exec
    .select({
      held: sql<boolean>`EXISTS (SELECT 1 FROM ${subscribers} WHERE ${subscribers.cloudPbxId} = ${cloudPbxId}
          AND ${subscribers.shortNumberValue} = ${value})
        OR EXISTS (SELECT 1 FROM ${groups} WHERE ${groups.cloudPbxId} = ${cloudPbxId}
          AND ${groups.shortNumberValue} = ${value} AND ${groups.id} IS DISTINCT FROM ${exceptGroupId})`,
    })
    .from(sql`(SELECT 1) AS one`);
  return r?.held === true;
}

/** The ids among `ids` that are subscribers of the CloudPBX. */
export async function subscribersOfPbx(exec: Executor, cloudPbxId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await exec
    .select({ id: subscribers.id })
    .from(subscribers)
    .where(and(eq(subscribers.cloudPbxId, cloudPbxId), inArray(subscribers.id, ids)));
  return new Set(rows.map((r) => r.id));
}

export async function insertGroup(exec: Executor, row: NewGroup): Promise<GroupRow> {
  const [r] = await exec.insert(groups).values(row).returning();
  return r;
}

export async function updateGroupRow(exec: Executor, id: string, patch: Partial<NewGroup>): Promise<GroupRow> {
  const [r] = await exec.update(groups).set(patch).where(eq(groups.id, id)).returning();
  return r;
}

export async function deleteGroupRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(groups).where(eq(groups.id, id));
}

/** The group's subscribers of one role become `ids`, in that order. */
export async function replaceMembers(exec: Executor, groupId: string, role: string, ids: string[]): Promise<void> {
  await exec.delete(groupMembers).where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.role, role)));
  if (ids.length)
    await exec
      .insert(groupMembers)
      .values(ids.map((subscriberId, position) => ({ groupId, subscriberId, role, position })));
}

// ---------------------------------------------------------------------------------------------
// Forwards

/** A group's forward with its destination's name (null when it has none). */
export interface ForwardView {
  row: ForwardRow;
  subscriberName: string | null;
  groupName: string | null;
  ivrName: string | null;
}

export async function forwardsOf(exec: Executor, groupId: string): Promise<ForwardView[]> {
  return exec
    .select({
      row: groupForwards,
      subscriberName: sql<
        string | null
      >`(SELECT coalesce((${userNamesOf(subscribers.userId)})->>'displayName', '') FROM ${subscribers} WHERE ${subscribers.id} = ${groupForwards.targetSubscriberId})`,
      groupName: sql<string | null>`(SELECT g.name FROM ${groups} g WHERE g.id = ${groupForwards.targetGroupId})`,
      ivrName: sql<
        string | null
      >`(SELECT ${ivrs.name} FROM ${ivrs} WHERE ${ivrs.id} = ${groupForwards.vcpAutoAttendantId})`,
    })
    .from(groupForwards)
    .where(eq(groupForwards.groupId, groupId));
}

/** Writes the group's forward of that type (one row per group and type). */
export async function upsertForward(exec: Executor, row: NewForward): Promise<void> {
  const { groupId: _g, type: _t, ...set } = row;
  await exec
    .insert(groupForwards)
    .values(row)
    .onConflictDoUpdate({ target: [groupForwards.groupId, groupForwards.type], set });
}

/** Issue 26, point 2: the forwards reaching a group by its short number go when that number is freed. */
export async function deleteForwardsToGroup(exec: Executor, groupId: string): Promise<void> {
  await exec.delete(groupForwards).where(eq(groupForwards.targetGroupId, groupId));
}

/** What holds an internal number of the CloudPBX: a subscriber or a group. */
export async function holderOfNumber(
  exec: Executor,
  cloudPbxId: string,
  value: number,
): Promise<{ subscriberId: string | null; groupId: string | null; name: string }> {
  const [s] = await exec
    .select({ id: subscribers.id, name: displayName })
    .from(subscribers)
    .where(and(eq(subscribers.cloudPbxId, cloudPbxId), eq(subscribers.shortNumberValue, value)));
  if (s) return { subscriberId: s.id, groupId: null, name: s.name };
  const [g] = await exec
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .where(and(eq(groups.cloudPbxId, cloudPbxId), eq(groups.shortNumberValue, value)));
  return g ? { subscriberId: null, groupId: g.id, name: g.name } : { subscriberId: null, groupId: null, name: '' };
}

/** A welcome service (pbx_ivrs of kind `welcomeservice`) of the CloudPBX. */
export async function welcomeServiceOfPbx(
  exec: Executor,
  cloudPbxId: string,
  id: string,
): Promise<{ id: string; name: string } | undefined> {
  const [r] = await exec
    .select({ id: ivrs.id, name: ivrs.name })
    .from(ivrs)
    .where(and(eq(ivrs.id, id), eq(ivrs.cloudPbxId, cloudPbxId), eq(ivrs.kind, 'welcomeservice')));
  return r;
}

// ---------------------------------------------------------------------------------------------
// Service keys of manager-assistant groups

interface MissingKey {
  device_id: string;
  device_type_id: number;
  group_id: string;
  manager_id: string;
  user_id: string;
  short_number: string;
  display_name: string;
}

/**
 * Issue 26, point 1 (document 2, Programmable key: "`service` keys come from a service
 * activation"): the devices of each assistant of a manager-assistant group of the CloudPBX hold
 * one `service` monitor key per manager of that group, on the first free keyNum of the device's
 * model. Brings the keys to that state: a key whose assistant or manager left its group (or whose
 * device left its assistant) goes, a missing one is made (none when the device has no free key:
 * docs/decisions.md). Called in the transaction of every change that can alter it (a group's
 * creation and update, a subscriber's deletion, a device's assignment and unassignment); a
 * group's deletion takes its keys through the foreign key.
 */
export async function syncServiceKeys(exec: Executor, cloudPbxId: string): Promise<void> {
  await exec.execute(sql`DELETE FROM ${programmableKeys} k USING ${devices} d
    WHERE k.device_id = d.id AND d.cloudpbx_id = ${cloudPbxId} AND k.service_group_id IS NOT NULL
      AND NOT (EXISTS (SELECT 1 FROM ${groupMembers} a WHERE a.group_id = k.service_group_id AND a.role = 'assistant'
                 AND a.subscriber_id = d.subscriber_id)
           AND EXISTS (SELECT 1 FROM ${groupMembers} m WHERE m.group_id = k.service_group_id AND m.role = 'manager'
                 AND m.subscriber_id = k.phone_number_id))`);
  const missing = rowsOf<MissingKey>(
    await exec.execute(sql`SELECT d.id AS device_id, d.device_type_id, g.id AS group_id, ms.id AS manager_id,
        ms.user_id, ms.short_number,
        coalesce((${userNamesOf(sql`ms.user_id`)})->>'displayName', '') AS display_name
      FROM ${groups} g
      JOIN ${groupMembers} a ON a.group_id = g.id AND a.role = 'assistant'
      JOIN ${devices} d ON d.subscriber_id = a.subscriber_id
      JOIN ${groupMembers} m ON m.group_id = g.id AND m.role = 'manager' AND m.subscriber_id <> a.subscriber_id
      JOIN ${subscribers} ms ON ms.id = m.subscriber_id
      WHERE g.cloudpbx_id = ${cloudPbxId} AND g.type = 'manager_assistant'
        AND NOT EXISTS (SELECT 1 FROM ${programmableKeys} k WHERE k.device_id = d.id
          AND k.service_group_id = g.id AND k.phone_number_id = ms.id)
      ORDER BY d.id, g.creation_date, g.id, m.position`),
  );
  if (missing.length === 0) return;
  const deviceIds = [...new Set(missing.map((m) => m.device_id))];
  const used = await exec
    .select({ deviceId: programmableKeys.deviceId, keyNum: programmableKeys.keyNum })
    .from(programmableKeys)
    .where(inArray(programmableKeys.deviceId, deviceIds));
  const taken = new Map<string, Set<number>>(deviceIds.map((id) => [id, new Set<number>()]));
  for (const u of used) taken.get(u.deviceId)?.add(u.keyNum);
  const rows: (typeof programmableKeys.$inferInsert)[] = [];
  for (const m of missing) {
    const nums = taken.get(m.device_id) ?? new Set<number>();
    const max = storedDeviceModel(Number(m.device_type_id)).programmableKeys;
    let keyNum = 1;
    while (keyNum <= max && nums.has(keyNum)) keyNum++;
    if (keyNum > max) continue;
    nums.add(keyNum);
    rows.push({
      deviceId: m.device_id,
      keyNum,
      keyType: 'monitor',
      keyOwner: 'service',
      userId: m.user_id,
      phoneNumberId: m.manager_id,
      displayName: m.display_name,
      number: m.short_number,
      serviceGroupId: m.group_id,
    });
  }
  if (rows.length) await exec.insert(programmableKeys).values(rows);
}
