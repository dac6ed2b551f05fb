// Rules of the welcomes and welcome services of a CloudPBX and of their office hours (document 2,
// "Welcome and welcome service (IVR)", "Office hours", "Welcome services (IVR)"; issue 26, points
// 6 and 7; decisions in docs/decisions.md, "CloudPBX: welcome services and office hours"). Every
// change takes the CloudPBX's row lock first (one change of its IVRs at a time, as for its DDIs),
// key-share locks what it comes to reference (a concurrent delete of it waits, then cascades),
// and tells the gateway (emitPbxChange) last in its transaction.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { newId } from '../../shared/ids.ts';
import { overCompany } from '../admin/companies/companies.api.ts';
import { systemsByIds } from '../systems/systems.api.ts';
import * as repo from './ivrs.repo.ts';
import { lockCloudPbx } from './pbx.repo.ts';
import { emitPbxChange } from './pbx.events.ts';
import { OVERFLOW_TYPES, type OverflowType } from './ivrs.schemas.ts';
import { isOneOf } from '../../shared/json-values.ts';
import {
  checkExceptions,
  checkOpenhours,
  defaultOfficeHours,
  isTimeZone,
  officeState,
  OfficeHoursError,
  type OfficeHoursValue,
} from './office-hours.ts';

/** The time zone of a welcome whose company has none (or one Intl does not know). */
export const DEFAULT_TIMEZONE = 'UTC';

const zoneOf = (tz: string | null | undefined) => (tz && isTimeZone(tz) ? tz : DEFAULT_TIMEZONE);

/** A welcome's office hours (a row made before they were stored: the default ones). */
const hoursOf = (row: { officeHours: OfficeHoursValue | null }): OfficeHoursValue =>
  row.officeHours ?? defaultOfficeHours();

function toApiOverflow(o: repo.OverflowView) {
  const isService = o.type === 'auto_attendant';
  return {
    type: isOneOf(OVERFLOW_TYPES, o.type) ? o.type : 'user',
    destinationId: o.destinationId,
    number: o.number,
    name: o.name,
    userDisplayName: o.userDisplayName,
    userId: o.userId,
    vcpAutoAttendantId: isService ? o.destinationId : null,
    vcpAutoAttendantName: isService ? o.name : null,
  };
}

/** Document 2, Welcome. */
export function toApiWelcome(v: repo.IvrView) {
  const r = v.row;
  return { id: r.id, systemId: r.cloudPbxId, name: r.name, timezone: zoneOf(r.timezone), isDefaultIvr: r.isDefaultIvr };
}

/** Document 2, Welcome service: its welcome's name and time zone, its DDI, its overflows with their destinations. */
export function toApiWelcomeService(v: repo.IvrView) {
  const r = v.row;
  const overflow = (hours: string) => {
    const o = v.overflows.find((x) => x.hours === hours);
    return o ? toApiOverflow(o) : null;
  };
  return {
    id: r.id,
    systemId: r.cloudPbxId,
    name: r.name,
    externalNumber: v.ddi?.numberE164 ?? null,
    externalNumberId: v.ddi?.id ?? null,
    phoneNumberId: v.ddi?.id ?? null,
    timezone: zoneOf(v.welcome?.timezone),
    welcomeId: r.welcomeId ?? '',
    welcomeName: v.welcome?.name ?? '',
    vcpAutoAttendantId: r.id,
    isDefaultIvr: r.isDefaultIvr,
    openHoursOverflow: overflow('open'),
    closedHoursOverflow: overflow('closed'),
  };
}

export function toApiIvr(v: repo.IvrView) {
  return v.row.kind === 'welcomeservice' ? toApiWelcomeService(v) : toApiWelcome(v);
}

async function view(exec: Executor, cloudPbxId: string, id: string): Promise<repo.IvrView> {
  return (await repo.readIvrView(exec, cloudPbxId, id)) ?? fail('NOT_FOUND', { target: 'ivr', id });
}

export async function readIvr(exec: Executor, cloudPbxId: string, id: string) {
  return toApiIvr(await view(exec, cloudPbxId, id));
}

/** The fields the gateway is told of. */
function changeFields(
  r: Pick<repo.IvrRow, 'id' | 'kind' | 'name' | 'welcomeId' | 'timezone'>,
  extra: Record<string, unknown> = {},
) {
  return { id: r.id, kind: r.kind, name: r.name, welcomeId: r.welcomeId, timezone: r.timezone, ...extra };
}

async function lockPbx(tx: Executor, pbxId: string): Promise<void> {
  if (!(await lockCloudPbx(tx, pbxId))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbxId });
}

/**
 * Issue 26, point 6: a welcome's timezone is its company's (companies.timezone), when Intl knows
 * it; else UTC (docs/decisions.md).
 */
async function companyTimezone(exec: Executor, cloudPbxId: string): Promise<string> {
  const [system] = await systemsByIds(exec, [cloudPbxId]);
  if (!system) fail('NOT_FOUND', { target: 'cloudpbx', id: cloudPbxId });
  const c = await overCompany<{ timezone: string | null }>(exec, system.companyId, { timezone: sql`t.timezone` });
  return zoneOf(c?.timezone);
}

/** The first welcome (or welcome service) of a CloudPBX is its default; the oldest left when it goes. */
async function promoteDefault(tx: Executor, pbxId: string, kind: string): Promise<void> {
  if (await repo.hasDefaultOfKind(tx, pbxId, kind)) return;
  const oldest = await repo.oldestOfKind(tx, pbxId, kind);
  if (oldest) await repo.updateIvr(tx, oldest.id, { isDefaultIvr: true });
}

/**
 * Issue 26, point 6: a welcome {name}: its time zone the company's, Monday to Friday 09:00 to
 * 18:00 (point 7).
 */
export async function createWelcome(db: Executor, pbx: { id: string }, body: { name: string }, now: Date) {
  const timezone = await companyTimezone(db, pbx.id);
  const id = newId();
  await db.transaction(async (tx) => {
    await lockPbx(tx, pbx.id);
    const isDefaultIvr = !(await repo.hasDefaultOfKind(tx, pbx.id, 'welcome'));
    const row: repo.NewIvr = {
      id,
      cloudPbxId: pbx.id,
      kind: 'welcome',
      name: body.name.trim() || body.name,
      timezone,
      isDefaultIvr,
      officeHours: defaultOfficeHours(),
      welcomeId: null,
      creationDate: now,
    };
    await repo.insertIvr(tx, row);
    await emitPbxChange(
      tx,
      pbx.id,
      'ivr',
      'create',
      changeFields(
        { id, kind: 'welcome', name: row.name, welcomeId: null, timezone },
        {
          officehours: JSON.stringify(row.officeHours),
        },
      ),
    );
  });
  return toApiWelcome(await view(db, pbx.id, id));
}

export interface OverflowInput {
  type?: OverflowType;
  destinationId?: string;
}

type OverflowTarget = Omit<repo.OverflowRow, 'ivrId' | 'hours'>;

/**
 * Issue 26, point 6: an overflow destination {type, destinationId} must exist in this CloudPBX,
 * of the type's kind (400 400881 naming the field otherwise): `user` a subscriber (its
 * phoneNumberId); `voicemail` a subscriber's or a hunting group's voicemail; `hunting_group` a
 * hunting group; `auto_attendant` another welcome service; `closed_hours` and `office_hours` a
 * welcome. undefined or {}: no change; null: no overflow.
 */
async function resolveOverflow(
  tx: Executor,
  pbxId: string,
  selfId: string,
  fieldName: string,
  o: OverflowInput | null | undefined,
): Promise<OverflowTarget | null | 'unchanged'> {
  if (o === undefined) return 'unchanged';
  if (o === null) return null;
  if (o.type === undefined && o.destinationId === undefined) return 'unchanged';
  if (o.type === undefined) fail('IVR_DESTINATION_INVALID', { field: `${fieldName}.type`, reason: 'type is required' });
  const id = o.destinationId;
  if (id === undefined)
    fail('IVR_DESTINATION_INVALID', { field: `${fieldName}.destinationId`, reason: 'destinationId is required' });
  const refuse = (reason: string): never =>
    fail('IVR_DESTINATION_INVALID', { field: `${fieldName}.destinationId`, type: o.type, destinationId: id, reason });
  const none = { targetSubscriberId: null, targetGroupId: null, targetIvrId: null };
  switch (o.type) {
    case 'user':
      if (!(await repo.holdSubscriber(tx, pbxId, id))) refuse('not a subscriber (phoneNumberId) of this CloudPBX');
      return { type: o.type, ...none, targetSubscriberId: id };
    case 'voicemail':
      if (await repo.holdSubscriber(tx, pbxId, id)) return { type: o.type, ...none, targetSubscriberId: id };
      if (await repo.holdHuntingGroup(tx, pbxId, id)) return { type: o.type, ...none, targetGroupId: id };
      return refuse('neither a subscriber nor a hunting group of this CloudPBX');
    case 'hunting_group':
      if (!(await repo.holdHuntingGroup(tx, pbxId, id))) refuse('not a hunting group of this CloudPBX');
      return { type: o.type, ...none, targetGroupId: id };
    case 'auto_attendant':
      if (id === selfId) refuse('a welcome service cannot overflow to itself');
      if (!(await repo.holdIvr(tx, pbxId, id, 'welcomeservice'))) refuse('not a welcome service of this CloudPBX');
      return { type: o.type, ...none, targetIvrId: id };
    case 'closed_hours':
    case 'office_hours':
      if (!(await repo.holdIvr(tx, pbxId, id, 'welcome'))) refuse('not a welcome of this CloudPBX');
      return { type: o.type, ...none, targetIvrId: id };
  }
}

async function applyOverflow(
  tx: Executor,
  ivrId: string,
  hours: 'open' | 'closed',
  o: OverflowTarget | null | 'unchanged',
) {
  if (o !== 'unchanged') await repo.setOverflow(tx, ivrId, hours, o);
}

/** welcomeId: a welcome of this CloudPBX (the declared reference checked it is an IVR of it). */
async function holdWelcome(tx: Executor, pbxId: string, welcomeId: string): Promise<repo.IvrRow> {
  return (
    (await repo.holdIvr(tx, pbxId, welcomeId, 'welcome')) ??
    fail('IVR_NOT_A_WELCOME', { field: 'welcomeId', welcomeId })
  );
}

/**
 * Issue 26, point 6: externalNumberId, a DDI of this CloudPBX assigned to nothing else (no user,
 * group, other welcome service, auto attendant: 409 409880), then shows the service's id as its
 * vcpIVRId; the service's previous DDI is dissociated; null dissociates. The gateway is told of
 * each DDI that changed.
 */
async function applyExternalNumber(tx: Executor, pbxId: string, ivrId: string, ddiId: string | null | undefined) {
  if (ddiId === undefined) return;
  if (ddiId !== null) {
    const d =
      (await repo.lockDdiOf(tx, pbxId, ddiId)) ??
      fail('UNKNOWN_REFERENCE', { field: 'externalNumberId', kind: 'ddi', id: ddiId });
    if (d.vcpIvrId !== ivrId) {
      if (d.userId !== null || d.vcpGroupId !== null || d.vcpIvrId !== null || d.vcpAutoAttendantId !== null)
        fail('IVR_EXTERNAL_NUMBER_TAKEN', { field: 'externalNumberId', phoneNumberId: d.id });
      await repo.setDdiIvr(tx, d.id, ivrId);
      await emitPbxChange(tx, pbxId, 'ddi', 'update', { id: d.id, numberE164: d.numberE164, vcpIVRId: ivrId });
    }
  }
  for (const old of await repo.otherDdisOfIvr(tx, ivrId, ddiId ?? '')) {
    await repo.setDdiIvr(tx, old.id, null);
    await emitPbxChange(tx, pbxId, 'ddi', 'update', { id: old.id, numberE164: old.numberE164, vcpIVRId: null });
  }
}

export interface CreateServiceInput {
  name: string;
  welcomeId: string;
  openHoursOverflow: OverflowInput;
  closedHoursOverflow?: OverflowInput | null;
  externalNumberId?: string | null;
}

/** Issue 26, point 6; document 2, create a welcome service: name, welcomeId and openHoursOverflow required. */
export async function createWelcomeService(db: Executor, pbx: { id: string }, body: CreateServiceInput, now: Date) {
  const id = newId();
  await db.transaction(async (tx) => {
    await lockPbx(tx, pbx.id);
    await holdWelcome(tx, pbx.id, body.welcomeId);
    const open = await resolveOverflow(tx, pbx.id, id, 'openHoursOverflow', body.openHoursOverflow);
    // Document 2: openHoursOverflow is required ({} names no destination).
    if (open === 'unchanged' || open === null)
      fail('IVR_DESTINATION_INVALID', { field: 'openHoursOverflow', reason: 'an open-hours overflow is required' });
    const closed = await resolveOverflow(tx, pbx.id, id, 'closedHoursOverflow', body.closedHoursOverflow);
    const isDefaultIvr = !(await repo.hasDefaultOfKind(tx, pbx.id, 'welcomeservice'));
    const row: repo.IvrRow = {
      id,
      cloudPbxId: pbx.id,
      kind: 'welcomeservice',
      name: body.name.trim() || body.name,
      timezone: null,
      isDefaultIvr,
      officeHours: null,
      welcomeId: body.welcomeId,
      creationDate: now,
    };
    await repo.insertIvr(tx, row);
    await applyOverflow(tx, id, 'open', open);
    await applyOverflow(tx, id, 'closed', closed);
    await applyExternalNumber(tx, pbx.id, id, body.externalNumberId);
    await emitPbxChange(tx, pbx.id, 'ivr', 'create', changeFields(row, overflowFields(open, closed)));
  });
  return toApiWelcomeService(await view(db, pbx.id, id));
}

const overflowText = (o: OverflowTarget | null | 'unchanged') =>
  o === 'unchanged'
    ? undefined
    : o === null
      ? null
      : `${o.type}:${o.targetSubscriberId ?? o.targetGroupId ?? o.targetIvrId ?? ''}`;

function overflowFields(open: OverflowTarget | null | 'unchanged', closed: OverflowTarget | null | 'unchanged') {
  const out: Record<string, unknown> = {};
  if (open !== 'unchanged') out.openHoursOverflow = overflowText(open);
  if (closed !== 'unchanged') out.closedHoursOverflow = overflowText(closed);
  return out;
}

export interface UpdateIvrInput {
  name?: string;
  welcomeId?: string;
  openHoursOverflow?: OverflowInput;
  closedHoursOverflow?: OverflowInput | null;
  externalNumberId?: string | null;
}

/**
 * Document 2, update (POST C/ivrs/{ivrId}): a welcome takes its name (the welcome service's
 * fields sent to a welcome are ignored, as unknown fields are); a welcome service its name, its
 * welcome, its overflows and its external number. Absent fields and {} overflows are unchanged.
 */
export async function updateIvr(db: Executor, pbx: { id: string }, ivr: { id: string }, body: UpdateIvrInput) {
  await db.transaction(async (tx) => {
    await lockPbx(tx, pbx.id);
    const r = (await repo.lockIvr(tx, pbx.id, ivr.id)) ?? fail('NOT_FOUND', { target: 'ivr', id: ivr.id });
    const patch: Partial<repo.NewIvr> = {};
    if (body.name !== undefined) patch.name = body.name.trim() || body.name;
    let extra: Record<string, unknown> = {};
    if (r.kind === 'welcomeservice') {
      if (body.welcomeId !== undefined && body.welcomeId !== r.welcomeId) {
        await holdWelcome(tx, pbx.id, body.welcomeId);
        patch.welcomeId = body.welcomeId;
      }
      const open = await resolveOverflow(tx, pbx.id, r.id, 'openHoursOverflow', body.openHoursOverflow);
      const closed = await resolveOverflow(tx, pbx.id, r.id, 'closedHoursOverflow', body.closedHoursOverflow);
      await applyOverflow(tx, r.id, 'open', open);
      await applyOverflow(tx, r.id, 'closed', closed);
      await applyExternalNumber(tx, pbx.id, r.id, body.externalNumberId);
      extra = overflowFields(open, closed);
      if (body.externalNumberId !== undefined) extra.externalNumberId = body.externalNumberId;
    }
    if (Object.keys(patch).length) await repo.updateIvr(tx, r.id, patch);
    await emitPbxChange(tx, pbx.id, 'ivr', 'update', changeFields({ ...r, ...patch }, extra));
  });
  return readIvr(db, pbx.id, ivr.id);
}

/**
 * Document 2, delete a welcome or welcome service. A welcome used by a welcome service is 409
 * 409881. A welcome service's DDI is freed (pbx_ddis.vcp_ivr_id ON DELETE SET NULL; the gateway
 * is told), and the group forwards and the overflows of other services pointing to it go with it
 * (their foreign keys cascade), as do the overflows to a deleted welcome. The default moves to the
 * oldest one left of its kind.
 */
export async function deleteIvr(db: Executor, pbx: { id: string }, ivr: { id: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await lockPbx(tx, pbx.id);
    const r = (await repo.lockIvr(tx, pbx.id, ivr.id)) ?? fail('NOT_FOUND', { target: 'ivr', id: ivr.id });
    if (r.kind === 'welcome') {
      const users = await repo.servicesOfWelcome(tx, r.id);
      if (users.length) fail('IVR_WELCOME_IN_USE', { ivrId: r.id, welcomeServiceIds: users });
    }
    const freed = r.kind === 'welcomeservice' ? await repo.lockDdisOfIvr(tx, r.id) : [];
    await repo.deleteIvrRow(tx, r.id);
    if (r.isDefaultIvr) await promoteDefault(tx, pbx.id, r.kind);
    for (const d of freed)
      await emitPbxChange(tx, pbx.id, 'ddi', 'update', { id: d.id, numberE164: d.numberE164, vcpIVRId: null });
    await emitPbxChange(tx, pbx.id, 'ivr', 'delete', { id: r.id, kind: r.kind });
  });
}

/** The welcome whose office hours apply: the welcome itself, or a welcome service's welcome. */
async function welcomeOf(exec: Executor, pbxId: string, ivr: repo.IvrRow): Promise<repo.IvrRow> {
  if (ivr.kind === 'welcome') return ivr;
  const w = ivr.welcomeId ? await repo.readIvrRow(exec, pbxId, ivr.welcomeId, 'welcome') : undefined;
  return w ?? fail('NOT_FOUND', { target: 'ivr', id: ivr.welcomeId });
}

/**
 * Issue 26, point 7: GET office hours: the welcome's (a welcome service's: its welcome's), its
 * time zone, and isOpen / nextChange at the service's clock (office-hours.ts, officeState).
 */
export async function getOfficeHours(exec: Executor, pbxId: string, ivr: repo.IvrRow, now: Date) {
  const w = await welcomeOf(exec, pbxId, ivr);
  const officehours = hoursOf(w);
  const timezone = zoneOf(w.timezone);
  const { isOpen, nextChange } = officeState(officehours, timezone, now);
  return { officehours, timezone, isOpen, nextChange };
}

export interface OfficeHoursInput {
  officehours?: { openhours?: unknown[]; exceptions?: unknown[] };
}

/**
 * Issue 26, point 7: PUT office hours, validated strictly (office-hours.ts: 400 400880 naming
 * the day or exception); an absent member is unchanged. On a welcome only (409 409882 on a
 * welcome service: its hours are its welcome's).
 */
export async function updateOfficeHours(
  db: Executor,
  pbx: { id: string },
  ivr: { id: string },
  body: OfficeHoursInput,
) {
  // An empty nested object means no change (the HTTP layer may drop it altogether).
  const input = body.officehours ?? {};
  let openhours: OfficeHoursValue['openhours'] | undefined;
  let exceptions: OfficeHoursValue['exceptions'] | undefined;
  try {
    if (input.openhours !== undefined) openhours = checkOpenhours(input.openhours);
    if (input.exceptions !== undefined) exceptions = checkExceptions(input.exceptions);
  } catch (err) {
    if (err instanceof OfficeHoursError) fail('IVR_OFFICE_HOURS_INVALID', { ...err.problem });
    throw err;
  }
  return db.transaction(async (tx) => {
    await lockPbx(tx, pbx.id);
    const r = (await repo.lockIvr(tx, pbx.id, ivr.id)) ?? fail('NOT_FOUND', { target: 'ivr', id: ivr.id });
    if (r.kind !== 'welcome') fail('IVR_HOURS_OF_WELCOME', { ivrId: r.id, welcomeId: r.welcomeId });
    const old = hoursOf(r);
    const officehours: OfficeHoursValue = {
      openhours: openhours ?? old.openhours,
      exceptions: exceptions ?? old.exceptions,
    };
    if (openhours !== undefined || exceptions !== undefined) {
      await repo.updateIvr(tx, r.id, { officeHours: officehours });
      await emitPbxChange(tx, pbx.id, 'ivr', 'update', changeFields(r, { officehours: JSON.stringify(officehours) }));
    }
    return { status: `Office hours of welcome ${r.id} updated`, officehours };
  });
}
