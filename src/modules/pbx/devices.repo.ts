// SQL of the SIP devices of a CloudPBX (pbx_devices). The device's subscriber is this module's
// table; the user's display name and the PBX's company are read through their modules' faces.
import { and, asc, desc, eq, getTableColumns, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Paging } from '../../http/paging.ts';
import { field } from '../../shared/json-values.ts';
import { userNamesOf } from '../admin/users/users.api.ts';
import { systemColumnOf } from '../systems/systems.api.ts';
import { devices } from './devices.tables.ts';
import { subscribers } from './subscribers.tables.ts';
import type { DEVICE_SORT_FIELDS } from './devices.schemas.ts';

export type DeviceRow = typeof devices.$inferSelect;
export type NewDevice = typeof devices.$inferInsert;

/** A device with what its answer shows of its subscriber, its user and its PBX's company. */
export type DeviceView = DeviceRow & {
  companyId: string;
  shortNumber: string | null;
  userId: string | null;
  userDisplayName: string | null;
};

const viewColumns = {
  device: devices,
  companyId: sql<string>`${systemColumnOf(devices.cloudPbxId, 'companyId')}`,
  shortNumber: subscribers.shortNumber,
  userId: subscribers.userId,
  userDisplayName: sql<string | null>`(${userNamesOf(subscribers.userId)})->>'displayName'`,
};

type ViewRow = {
  device: DeviceRow;
  companyId: string;
  shortNumber: string | null;
  userId: string | null;
  userDisplayName: string | null;
};
const toView = (r: ViewRow): DeviceView => ({
  ...r.device,
  companyId: r.companyId,
  shortNumber: r.shortNumber,
  userId: r.userId,
  userDisplayName: r.userDisplayName,
});

/** Whether the error is the violation of the unique index `constraint` (a concurrent insert or update). */
export function isUniqueViolation(err: unknown, constraint: string): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 3; e = field(e, 'cause'), depth++)
    if (field(e, 'code') === '23505') return field(e, 'constraint') === constraint;
  return false;
}

export const MAC_INDEX = 'pbx_devices_mac_uq';
export const KEY_PRIMARY_KEY = 'pbx_programmable_keys_device_id_key_num_pk';

/** The device of that id in that CloudPBX, as answered. */
export async function deviceView(exec: Executor, cloudPbxId: string, id: string): Promise<DeviceView | undefined> {
  const [r] = await exec
    .select(viewColumns)
    .from(devices)
    .leftJoin(subscribers, eq(subscribers.id, devices.subscriberId))
    .where(and(eq(devices.id, id), eq(devices.cloudPbxId, cloudPbxId)));
  return r && toView(r);
}

export async function insertDevice(exec: Executor, row: NewDevice): Promise<DeviceRow> {
  const [r] = await exec.insert(devices).values(row).returning();
  return r;
}

export async function updateDeviceRow(
  exec: Executor,
  id: string,
  patch: Partial<NewDevice>,
): Promise<DeviceRow | undefined> {
  const [r] = await exec.update(devices).set(patch).where(eq(devices.id, id)).returning();
  return r;
}

/** The row locked until the transaction ends (one change of a device at a time). */
export async function lockDevice(exec: Executor, cloudPbxId: string, id: string): Promise<DeviceRow | undefined> {
  const [r] = await exec
    .select()
    .from(devices)
    .where(and(eq(devices.id, id), eq(devices.cloudPbxId, cloudPbxId)))
    .for('update');
  return r;
}

export async function deleteDeviceRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(devices).where(eq(devices.id, id));
}

/** The device holding that MAC address on the platform (any CloudPBX), if any. */
export async function deviceByMac(exec: Executor, macAddress: string): Promise<DeviceRow | undefined> {
  const [r] = await exec.select().from(devices).where(eq(devices.macAddress, macAddress));
  return r;
}

/** The ids of a subscriber's devices. */
export async function subscriberDeviceIds(exec: Executor, subscriberId: string): Promise<string[]> {
  const rows = await exec
    .select({ id: devices.id })
    .from(devices)
    .where(eq(devices.subscriberId, subscriberId))
    .orderBy(asc(devices.id));
  return rows.map((r) => r.id);
}

/** A subscriber of the CloudPBX (a key's destination), if it is one. */
export async function subscriberOfPbx(exec: Executor, cloudPbxId: string, id: string) {
  const [r] = await exec
    .select({ id: subscribers.id, userId: subscribers.userId, shortNumber: subscribers.shortNumber })
    .from(subscribers)
    .where(and(eq(subscribers.id, id), eq(subscribers.cloudPbxId, cloudPbxId)));
  return r;
}

export interface DeviceFilters {
  assigned?: boolean;
  subscriberId?: string;
}

const SORT = {
  macAddress: devices.macAddress,
  description: devices.description,
  deviceTypeId: devices.deviceTypeId,
  creationDate: devices.creationDate,
};

/**
 * A page of the CloudPBX's devices and their count, in one statement: the page and the count (a
 * window over the filtered rows) are taken on the devices alone, and only the page's rows then
 * read their subscriber, user and company. A page past the end asks the count alone.
 */
export async function listDeviceViews(
  exec: Executor,
  cloudPbxId: string,
  f: DeviceFilters,
  p: Paging<(typeof DEVICE_SORT_FIELDS)[number]>,
): Promise<{ rows: DeviceView[]; total: number }> {
  const c: SQL[] = [eq(devices.cloudPbxId, cloudPbxId)];
  if (f.assigned === true) c.push(isNotNull(devices.subscriberId));
  if (f.assigned === false) c.push(isNull(devices.subscriberId));
  if (f.subscriberId !== undefined) c.push(eq(devices.subscriberId, f.subscriberId));
  const where = and(...c);
  const dir = p.sortOrder === 1 ? asc : desc;
  const page = exec
    .select({ ...getTableColumns(devices), total: sql<number>`(count(*) OVER ())::int`.as('total') })
    .from(devices)
    .where(where)
    .orderBy(dir(SORT[p.sortField]), dir(devices.id))
    .limit(p.limit)
    .offset(p.offset)
    .as('page');
  const { total: _total, ...pageColumns } = page._.selectedFields;
  void _total;
  const rows = await exec
    .select({
      device: pageColumns,
      total: page.total,
      companyId: sql<string>`${systemColumnOf(page.cloudPbxId, 'companyId')}`,
      shortNumber: subscribers.shortNumber,
      userId: subscribers.userId,
      userDisplayName: sql<string | null>`(${userNamesOf(subscribers.userId)})->>'displayName'`,
    })
    .from(page)
    .leftJoin(subscribers, eq(subscribers.id, page.subscriberId))
    .orderBy(dir(page[p.sortField]), dir(page.id));
  if (rows.length > 0) return { rows: rows.map(toView), total: rows[0].total };
  if (p.offset === 0) return { rows: [], total: 0 };
  const [count] = await exec
    .select({ n: sql<number>`count(*)::int` })
    .from(devices)
    .where(where);
  return { rows: [], total: count?.n ?? 0 };
}
