// SQL of the SIP devices of a CloudPBX (pbx_devices). The device's subscriber is this module's
// table; the user's display name and the PBX's company are read through their modules' faces.
import { and, asc, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.ts';
import { runCounted, unlessUnchanged, versionedCount } from '../../db/list-count.ts';
import { jsonRowReader } from '../../db/row-json.ts';
import { cloudPbxs } from './pbx.tables.ts';
import type { Paging } from '../../http/paging.ts';
import { field, isRecord } from '../../shared/json-values.ts';
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

/** The ids of the devices of a subscriber, or of a whole CloudPBX (their accounts on the registrar). */
export async function deviceIdsOf(
  exec: Executor,
  of: { subscriberId: string } | { cloudPbxId: string },
): Promise<string[]> {
  const where =
    'subscriberId' in of ? eq(devices.subscriberId, of.subscriberId) : eq(devices.cloudPbxId, of.cloudPbxId);
  const rows = await exec.select({ id: devices.id }).from(devices).where(where).orderBy(asc(devices.id));
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

const readDevice = jsonRowReader<DeviceRow>(devices);
/** The views of a remembered page, made once per page (the same array comes back while the version stands). */
const viewsOfPage = new WeakMap<object, DeviceView[]>();

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * A page of the CloudPBX's devices and their count, in one prepared statement remembered with the
 * 'pbx' list version (src/db/list-count.ts; migration 0028): while nothing of the PBX's tables,
 * users or systems was written, the same request is answered from memory. When computed, the page
 * is taken on the devices alone (index pbx_devices_pbx_mac_idx for the default sort), and only the
 * page's rows then read their subscriber and user; the PBX's company is read once.
 */
export async function listDeviceViews(
  database: Database,
  cloudPbxId: string,
  f: DeviceFilters,
  p: Paging<(typeof DEVICE_SORT_FIELDS)[number]>,
  version: string | undefined,
): Promise<{ rows: DeviceView[]; total: number }> {
  const row = await runCounted<{ list_version: string | null; total: number | null; company: unknown; rows: unknown }>(
    database,
    (known) => {
      const c: SQL[] = [eq(devices.cloudPbxId, cloudPbxId)];
      if (f.assigned === true) c.push(isNotNull(devices.subscriberId));
      if (f.assigned === false) c.push(isNull(devices.subscriberId));
      if (f.subscriberId !== undefined) c.push(eq(devices.subscriberId, f.subscriberId));
      const where = and(...c);
      const dir = sql.raw(p.sortOrder === 1 ? 'ASC' : 'DESC');
      const key = SORT[p.sortField];
      const company = sql`(SELECT ${systemColumnOf(cloudPbxs.id, 'companyId')} FROM ${cloudPbxs} WHERE ${cloudPbxs.id} = ${cloudPbxId})`;
      const rows = sql`COALESCE((SELECT json_agg(json_build_object('row', to_jsonb(page), 'shortNumber', s.short_number,
          'userId', s.user_id, 'userDisplayName', (${userNamesOf(sql`s.user_id`)})->>'displayName')
          ORDER BY page.k ${dir}, page.id ${dir})
        FROM page LEFT JOIN ${subscribers} s ON s.id = page.subscriber_id), '[]'::json)`;
      // The page's ids first (the sort carries the key and the id, not whole rows), its rows after.
      return sql`WITH ids AS (
          SELECT ${devices.id} AS id, ${key} AS k FROM ${devices} WHERE ${where}
          ORDER BY ${key} ${dir}, ${devices.id} ${dir} LIMIT ${p.limit} OFFSET ${p.offset}),
        page AS (SELECT ${devices}.*, ids.k FROM ids JOIN ${devices} ON ${devices.id} = ids.id)
        SELECT ${unlessUnchanged('pbx', company, known, 'company')}, ${unlessUnchanged('pbx', rows, known, 'rows')},
          ${versionedCount('pbx', sql`SELECT count(*)::int FROM ${devices} WHERE ${where}`, known)}`;
    },
    JSON.stringify(['pbx_devices', cloudPbxId, f, p]),
    version,
  );
  const page = Array.isArray(row.rows) ? row.rows : [];
  let views = viewsOfPage.get(page);
  if (!views) {
    const companyId = text(row.company) ?? '';
    views = page.map((r) => {
      const device = field(r, 'row');
      return {
        ...readDevice(isRecord(device) ? device : {}),
        companyId,
        shortNumber: text(field(r, 'shortNumber')),
        userId: text(field(r, 'userId')),
        userDisplayName: text(field(r, 'userDisplayName')),
      };
    });
    viewsOfPage.set(page, views);
  }
  return { rows: views, total: row.total };
}
