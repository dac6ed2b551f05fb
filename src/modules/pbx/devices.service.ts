// Rules of the SIP devices of a CloudPBX (document 2, SIP device, SIP registration, the operations
// table; routes.md, CloudPBX; issue 25, points 5 and 8; decisions in docs/decisions.md, "CloudPBX:
// SIP devices and programmable keys"). A device belongs to its CloudPBX and is assigned to at most
// one subscriber; its SIP account lives on the voice platform's registrar (ports.voice). A port is
// never asked while a transaction is open: the operations ask it in `prepare` (before the
// transaction of an Idempotency-Key opens) and undo what they made when the command fails.
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../../authz/roles.ts';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { PortFailure } from '../../ports/control.ts';
import type { DeviceRegistration, VoicePort } from '../../ports/voice/voice.port.ts';
import { newId, randomSecret } from '../../shared/ids.ts';
import { seal, unseal } from '../../shared/keys.ts';
import { emitPbxChange } from './pbx.events.ts';
import { lockCloudPbx, type CloudPbxRow } from './pbx.repo.ts';
import { syncServiceKeys } from './groups.repo.ts';
import { DEVICE_MODELS, GENERIC_SIP_MODEL_ID, storedDeviceModel, type DeviceModelEntry } from './options.data.ts';
import * as repo from './devices.repo.ts';

/** Document 2, grant a debug session: "the configured default, for example 30 minutes" (docs/decisions.md). */
export const DEFAULT_DEBUG_SECONDS = 1800;

// ---------------------------------------------------------------------------------------------
// Values.

/** The device model of that id (document 2: from the device models), else 400 naming deviceTypeId. */
export function modelOf(deviceTypeId: number): DeviceModelEntry {
  return (
    DEVICE_MODELS.find((m) => m.id === deviceTypeId) ??
    fail('DEVICE_TYPE_UNKNOWN', { field: 'deviceTypeId', deviceTypeId })
  );
}

/**
 * A MAC address in its one stored form, lower-case hex pairs joined by ':' (issue 25, point 5):
 * 'AA-BB-CC-DD-EE-FF', 'aabb.ccdd.eeff', 'AABBCCDDEEFF' and 'aa:bb:cc:dd:ee:ff' are one address.
 */
export function normaliseMac(raw: string): string {
  const hex = raw.trim().replace(/[:.-]/g, '').toLowerCase();
  if (!/^[0-9a-f]{12}$/.test(hex)) fail('DEVICE_MAC_INVALID', { field: 'macAddress', macAddress: raw.slice(0, 64) });
  return hex.replace(/(..)(?!$)/g, '$1:');
}

/**
 * Document 2, create a SIP device: macAddress "mandatory for a desk phone", that is any model but
 * the generic SIP model (a softphone has none); a generic device may still give one.
 */
function macOf(model: DeviceModelEntry, raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null || raw.trim() === '') {
    if (model.id !== GENERIC_SIP_MODEL_ID) fail('DEVICE_MAC_REQUIRED', { field: 'macAddress', deviceTypeId: model.id });
    return null;
  }
  return normaliseMac(raw);
}

/** A MAC address is unique across the platform (issue 25, point 5): 409 when another device holds it. */
async function checkMacFree(exec: Executor, macAddress: string | null, exceptId?: string): Promise<void> {
  if (macAddress === null) return;
  const holder = await repo.deviceByMac(exec, macAddress);
  if (holder && holder.id !== exceptId) fail('DEVICE_MAC_TAKEN', { field: 'macAddress', macAddress });
}

/**
 * The password of the device's SIP account. The registrar keeps only its HA1, so the service must
 * be able to give it again (a phone is configured with it): it is derived from the server's sealing
 * key, the device's id and its SIP user name (HMAC-SHA256), never stored (docs/decisions.md).
 */
export function sipPasswordOf(sealKey: Buffer, d: { id: string; sipUsername: string }): string {
  const key = createHmac('sha256', sealKey).update('pbx-device-sip-password').digest();
  return createHmac('sha256', key).update(`${d.id}\u0000${d.sipUsername}`).digest('base64url').slice(0, 24);
}

/** Whether the device's debug session is granted now (it ends by itself at its end date). */
const debugGranted = (d: repo.DeviceRow, now: Date) =>
  d.debugSessionEndDate !== null && now.getTime() < d.debugSessionEndDate.getTime();

/** The address of the phone's admin page, served through the platform's device proxy (docs/decisions.md). */
const adminUrlOf = (d: repo.DeviceRow, sipDomain: string) =>
  `https://${d.macAddress ? d.macAddress.replace(/:/g, '') : d.id}.devices.${sipDomain}/`;

export interface AnswerContext {
  now: Date;
  sealKey: Buffer;
  sipDomain: string;
}

/**
 * Document 2, SIP device, plus the SIP credentials its phone registers with. `secrets`: the SIP
 * password and, while a debug session is granted, the admin password (create and get); lists
 * answer them null.
 */
export function toApiDevice(v: repo.DeviceView, c: AnswerContext, secrets: boolean) {
  const model = storedDeviceModel(v.deviceTypeId);
  const granted = debugGranted(v, c.now);
  return {
    id: v.id,
    systemId: v.cloudPbxId,
    companyId: v.companyId,
    description: v.description,
    macAddress: v.macAddress,
    phoneNumberId: v.subscriberId,
    shortNumber: v.shortNumber,
    userId: v.userId,
    userDisplayName: v.userDisplayName,
    deviceType: { id: model.id, vendor: model.vendor, model: model.model },
    currentDevice: v.resetDate === null,
    adminPassword: granted && secrets ? unseal(c.sealKey, v.adminPassword) : null,
    debugSessionEndDate: granted ? v.debugSessionEndDate : null,
    adminUrl: granted ? adminUrlOf(v, c.sipDomain) : null,
    sipUsername: v.sipUsername,
    sipPassword: secrets ? sipPasswordOf(c.sealKey, v) : null,
    sipDomain: c.sipDomain,
    resetDate: v.resetDate,
    creationDate: v.creationDate,
  };
}

/** The fields the CloudPBX's gateway is told of a device (issue 25, point 9): no secret. */
const changeFields = (d: repo.DeviceRow, change?: 'assign' | 'unassign' | 'reset') => ({
  id: d.id,
  macAddress: d.macAddress,
  deviceTypeId: d.deviceTypeId,
  phoneNumberId: d.subscriberId,
  ...(change ? { change } : {}),
});

// ---------------------------------------------------------------------------------------------
// The registrar.

/** A call of the registrar; its failure is 502, the device's change not made. */
async function registrar<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof PortFailure) fail('DEVICE_REGISTRAR_FAILED', { operation });
    throw err;
  }
}

export type AccountState = 'absent' | 'disabled' | 'enabled';

/**
 * Makes the device's account usable: enabled again, or made again with its password when the
 * registrar has none (it was lost: the device is reconfigured). Answers the state it found.
 */
async function enableAccount(
  voice: VoicePort,
  sealKey: Buffer,
  pbx: CloudPbxRow,
  d: repo.DeviceRow,
): Promise<AccountState> {
  const account = await registrar('getDeviceAccount', () => voice.getDeviceAccount(d.id));
  if (!account) {
    await registrar('createDeviceAccount', () =>
      voice.createDeviceAccount({
        tenantId: pbx.vcpTenantId,
        deviceId: d.id,
        username: d.sipUsername,
        password: sipPasswordOf(sealKey, d),
      }),
    );
    return 'absent';
  }
  if (account.enabled) return 'enabled';
  await registrar('setDeviceAccountEnabled', () => voice.setDeviceAccountEnabled(d.id, true));
  return 'disabled';
}

/** Disables the device's account when it has an enabled one (issue 25, point 8). Answers whether it changed. */
export async function disableAccount(voice: VoicePort, deviceId: string): Promise<boolean> {
  const account = await registrar('getDeviceAccount', () => voice.getDeviceAccount(deviceId));
  if (!account?.enabled) return false;
  await registrar('setDeviceAccountEnabled', () => voice.setDeviceAccountEnabled(deviceId, false));
  return true;
}

/** What undoing a registrar change needs of a command's context. */
export interface UndoContext {
  db: Executor;
  deps: { database: { db: Executor } };
  log: FastifyBaseLogger;
}

/**
 * Runs a device command whose registrar change was made beforehand (its `prepare`); when the
 * command fails, `undo` (if any) takes the registrar back and the failure goes on. When the command
 * runs in a transaction of its caller's (an Idempotency-Key's), the registrar is asked once that
 * transaction has ended (on the embedded database, its one session is held until then).
 */
export async function undoingRegistrar<R>(
  cmd: UndoContext,
  deviceId: string,
  undo: (() => Promise<unknown>) | undefined,
  run: () => Promise<R>,
): Promise<R> {
  try {
    return await run();
  } catch (err) {
    if (undo) {
      const done = undo().then(
        () => undefined,
        (e: unknown) => {
          cmd.log.error(
            { err: e, deviceId },
            'pbx: a registrar change of a failed device operation could not be undone',
          );
        },
      );
      if (cmd.db === cmd.deps.database.db) await done;
    }
    throw err;
  }
}

async function viewOrGone(exec: Executor, pbxId: string, id: string): Promise<repo.DeviceView> {
  return (await repo.deviceView(exec, pbxId, id)) ?? fail('NOT_FOUND', { target: 'device', id });
}

export async function readDevice(exec: Executor, device: repo.DeviceRow, c: AnswerContext) {
  return toApiDevice(await viewOrGone(exec, device.cloudPbxId, device.id), c, true);
}

// ---------------------------------------------------------------------------------------------
// Create, update, delete.

export interface CreateDeviceInput {
  description: string;
  deviceTypeId: number;
  macAddress?: string | null;
}

export interface PreparedDevice {
  id: string;
  sipUsername: string;
  macAddress: string | null;
  deviceTypeId: number;
}

/**
 * Document 2, create a SIP device, before its transaction: the model, the MAC address (required
 * for a desk phone, normalised, unique), then the device's SIP account on the registrar, its user
 * name the device's id and its password derived (sipPasswordOf).
 */
export async function prepareCreateDevice(
  exec: Executor,
  voice: VoicePort,
  sealKey: Buffer,
  pbx: CloudPbxRow,
  body: CreateDeviceInput,
): Promise<PreparedDevice> {
  const model = modelOf(body.deviceTypeId);
  const macAddress = macOf(model, body.macAddress);
  await checkMacFree(exec, macAddress);
  const id = newId();
  const sipUsername = id;
  await registrar('createDeviceAccount', () =>
    voice.createDeviceAccount({
      tenantId: pbx.vcpTenantId,
      deviceId: id,
      username: sipUsername,
      password: sipPasswordOf(sealKey, { id, sipUsername }),
    }),
  );
  return { id, sipUsername, macAddress, deviceTypeId: model.id };
}

/** Document 2, create a SIP device: its row (the account made by prepareCreateDevice) and its event. */
export async function createDevice(
  db: Executor,
  pbx: CloudPbxRow,
  body: CreateDeviceInput,
  prepared: PreparedDevice,
  c: AnswerContext,
) {
  try {
    return await db.transaction(async (tx) => {
      const row = await repo.insertDevice(tx, {
        id: prepared.id,
        cloudPbxId: pbx.id,
        description: body.description,
        macAddress: prepared.macAddress,
        deviceTypeId: prepared.deviceTypeId,
        sipUsername: prepared.sipUsername,
        // The phone's admin password, shown only during a debug session.
        adminPassword: seal(c.sealKey, randomSecret(12)),
        creationDate: c.now,
      });
      await emitPbxChange(tx, pbx.id, 'device', 'create', changeFields(row));
      return toApiDevice(await viewOrGone(tx, pbx.id, row.id), c, true);
    });
  } catch (err) {
    // The same MAC address created meanwhile: the unique index refuses the second.
    if (repo.isUniqueViolation(err, repo.MAC_INDEX))
      fail('DEVICE_MAC_TAKEN', { field: 'macAddress', macAddress: prepared.macAddress });
    throw err;
  }
}

export interface UpdateDeviceInput {
  description?: string;
  macAddress?: string | null;
}

export interface PreparedUpdate {
  macAddress?: string | null;
  /** The account's state before a reset device was reconfigured (undefined: not reset). */
  account?: AccountState;
}

/**
 * Document 2, update a SIP device, before its transaction: the MAC address as on creation; a reset
 * device is reconfigured by its update, so its account is enabled again (made again if lost).
 */
export async function prepareUpdateDevice(
  exec: Executor,
  voice: VoicePort,
  sealKey: Buffer,
  pbx: CloudPbxRow,
  device: repo.DeviceRow,
  body: UpdateDeviceInput,
): Promise<PreparedUpdate> {
  const out: PreparedUpdate = {};
  if (body.macAddress !== undefined) {
    out.macAddress = macOf(modelOf(device.deviceTypeId), body.macAddress);
    await checkMacFree(exec, out.macAddress, device.id);
  }
  if (device.resetDate !== null) out.account = await enableAccount(voice, sealKey, pbx, device);
  return out;
}

export async function updateDevice(
  db: Executor,
  pbx: CloudPbxRow,
  device: repo.DeviceRow,
  body: UpdateDeviceInput,
  prepared: PreparedUpdate,
  c: AnswerContext,
) {
  try {
    return await db.transaction(async (tx) => {
      const current = (await repo.lockDevice(tx, pbx.id, device.id)) ?? fail('NOT_FOUND', { target: 'device' });
      const patch: Partial<repo.NewDevice> = {};
      if (body.description !== undefined) patch.description = body.description;
      if (prepared.macAddress !== undefined) patch.macAddress = prepared.macAddress;
      // Issue 25, point 5: updating reconfigures a reset device.
      if (current.resetDate !== null) patch.resetDate = null;
      const row = Object.keys(patch).length ? ((await repo.updateDeviceRow(tx, device.id, patch)) ?? current) : current;
      await emitPbxChange(tx, pbx.id, 'device', 'update', changeFields(row));
      return toApiDevice(await viewOrGone(tx, pbx.id, row.id), c, true);
    });
  } catch (err) {
    if (repo.isUniqueViolation(err, repo.MAC_INDEX))
      fail('DEVICE_MAC_TAKEN', { field: 'macAddress', macAddress: prepared.macAddress });
    throw err;
  }
}

/**
 * Document 2, delete a SIP device: "the device must not be associated to a subscriber" (409
 * otherwise). Its account leaves the registrar first (502: nothing deleted); a device assigned
 * meanwhile keeps its row and gets its account back.
 */
export async function deleteDevice(
  db: Executor,
  voice: VoicePort,
  sealKey: Buffer,
  pbx: CloudPbxRow,
  device: repo.DeviceRow,
) {
  if (device.subscriberId !== null) fail('DEVICE_ASSIGNED', { id: device.id, phoneNumberId: device.subscriberId });
  const account = await registrar('getDeviceAccount', () => voice.getDeviceAccount(device.id));
  if (account) await registrar('deleteDeviceAccount', () => voice.deleteDeviceAccount(device.id));
  try {
    await db.transaction(async (tx) => {
      const current = await repo.lockDevice(tx, pbx.id, device.id);
      if (!current) return;
      if (current.subscriberId !== null)
        fail('DEVICE_ASSIGNED', { id: device.id, phoneNumberId: current.subscriberId });
      await repo.deleteDeviceRow(tx, device.id);
      await emitPbxChange(tx, pbx.id, 'device', 'delete', changeFields(current));
    });
  } catch (err) {
    if (account) await enableAccount(voice, sealKey, pbx, device).catch(() => undefined);
    throw err;
  }
  return { status: `SIP device ${device.id} deleted`, data: [] };
}

// ---------------------------------------------------------------------------------------------
// Reset, reboot, registrations.

/**
 * Document 2, reset a SIP device to factory settings, before its transaction: its account is
 * disabled, so the device is inoperative until reconfigured (assigned or updated).
 */
export function prepareReset(voice: VoicePort, device: repo.DeviceRow): Promise<boolean> {
  return disableAccount(voice, device.id);
}

export async function resetDevice(db: Executor, pbx: CloudPbxRow, device: repo.DeviceRow, now: Date) {
  await db.transaction(async (tx) => {
    if (!(await repo.lockDevice(tx, pbx.id, device.id))) fail('NOT_FOUND', { target: 'device', id: device.id });
    // The factory settings end a debug session too.
    const row = await repo.updateDeviceRow(tx, device.id, { resetDate: now, debugSessionEndDate: null });
    if (row) await emitPbxChange(tx, pbx.id, 'device', 'update', changeFields(row, 'reset'));
  });
  return {
    status: `SIP device ${device.id} reset to factory settings: inoperative until reconfigured (assigned or updated)`,
    data: [],
  };
}

/** Document 2, reboot a desk phone: a NOTIFY to each registered contact (none without an account). */
export async function rebootDevice(voice: VoicePort, device: repo.DeviceRow): Promise<number> {
  const account = await registrar('getDeviceAccount', () => voice.getDeviceAccount(device.id));
  return account ? registrar('rebootDevice', () => voice.rebootDevice(device.id)) : 0;
}

export const rebootStatus = (deviceId: string, reached: number) =>
  `Reboot of SIP device ${deviceId} requested: ${reached} registered contact${reached === 1 ? '' : 's'} reached`;

/** Document 2, SIP registration. */
const toApiRegistration = (r: DeviceRegistration) => ({
  id: r.id,
  fullSipURI: r.fullSipURI,
  expirationDate: r.expirationDate,
  user_agent: r.user_agent,
  deviceId: r.deviceId,
  publicSourceRegistration: r.publicSourceRegistration,
});

/** Document 2, get SIP registrations of a device: its current bindings (none without an account). */
export async function deviceRegistrations(voice: VoicePort, deviceId: string) {
  const account = await registrar('getDeviceAccount', () => voice.getDeviceAccount(deviceId));
  if (!account) return [];
  return (await registrar('listRegistrations', () => voice.listRegistrations(deviceId))).map(toApiRegistration);
}

/** The registrations of a subscriber: those of each of its devices. */
export async function subscriberRegistrations(exec: Executor, voice: VoicePort, subscriberId: string) {
  const out: ReturnType<typeof toApiRegistration>[] = [];
  for (const id of await repo.deviceIdsOf(exec, { subscriberId })) out.push(...(await deviceRegistrations(voice, id)));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Debug sessions.

/**
 * Document 2, grant a debug session: until now + duration; "only superadmin may differ from the
 * configured default" (403830 otherwise). The admin password and page address are then shown by
 * getDevice until the end date, when the session ends by itself. A session granted again keeps
 * its password and gets the new end date.
 */
export async function grantDebugSession(
  db: Executor,
  caller: Caller,
  pbx: CloudPbxRow,
  device: repo.DeviceRow,
  duration: number | undefined,
  sealKey: Buffer,
  now: Date,
) {
  if (duration !== undefined && duration !== DEFAULT_DEBUG_SECONDS && !caller.roles.includes('superadmin'))
    fail('DEVICE_DEBUG_DURATION_FORBIDDEN', { field: 'duration', duration, default: DEFAULT_DEBUG_SECONDS });
  const end = new Date(now.getTime() + (duration ?? DEFAULT_DEBUG_SECONDS) * 1000);
  await db.transaction(async (tx) => {
    const current =
      (await repo.lockDevice(tx, pbx.id, device.id)) ?? fail('NOT_FOUND', { target: 'device', id: device.id });
    await repo.updateDeviceRow(tx, device.id, {
      debugSessionEndDate: end,
      ...(debugGranted(current, now) ? {} : { adminPassword: seal(sealKey, randomSecret(12)) }),
    });
  });
  return { status: `Debug session of SIP device ${device.id} granted until ${end.toISOString()}`, data: [] };
}

/** Document 2, revoke a debug session: ended, and the admin password changed (no longer visible). */
export async function revokeDebugSession(
  db: Executor,
  pbx: CloudPbxRow,
  device: repo.DeviceRow,
  sealKey: Buffer,
  now: Date,
) {
  const wasGranted = await db.transaction(async (tx) => {
    const current =
      (await repo.lockDevice(tx, pbx.id, device.id)) ?? fail('NOT_FOUND', { target: 'device', id: device.id });
    await repo.updateDeviceRow(tx, device.id, {
      debugSessionEndDate: null,
      adminPassword: seal(sealKey, randomSecret(12)),
    });
    return debugGranted(current, now);
  });
  return {
    status: wasGranted
      ? `Debug session of SIP device ${device.id} revoked; its admin password changed`
      : `SIP device ${device.id} had no debug session; its admin password changed`,
    data: [],
  };
}

// ---------------------------------------------------------------------------------------------
// Subscribers' devices.

export interface AssignInput {
  deviceId?: string;
  macAddress?: string;
  deviceTypeId?: number;
}

export interface PreparedAssign {
  deviceId: string;
  account: AccountState;
}

/**
 * The device an assignment names: by its id (preferred), or by its MAC address and device type
 * id (document 2), a device of the subscriber's CloudPBX ("the device must already exist"; 400005
 * naming the field otherwise, as a reference of the body).
 */
async function deviceToAssign(exec: Executor, pbx: CloudPbxRow, body: AssignInput): Promise<repo.DeviceRow> {
  if (body.deviceId !== undefined) {
    const v = await repo.deviceView(exec, pbx.id, body.deviceId);
    return v ?? fail('UNKNOWN_REFERENCE', { field: 'deviceId', kind: 'device', id: body.deviceId });
  }
  if (body.macAddress === undefined)
    fail('VALIDATION_FAILED', { field: 'deviceId', reason: 'deviceId, or macAddress and deviceTypeId, is required' });
  if (body.deviceTypeId === undefined)
    fail('VALIDATION_FAILED', { field: 'deviceTypeId', reason: 'deviceTypeId is required with macAddress' });
  const macAddress = normaliseMac(body.macAddress);
  const d = await repo.deviceByMac(exec, macAddress);
  if (!d || d.cloudPbxId !== pbx.id) fail('UNKNOWN_REFERENCE', { field: 'macAddress', kind: 'device', macAddress });
  if (d.deviceTypeId !== body.deviceTypeId)
    fail('UNKNOWN_REFERENCE', { field: 'deviceTypeId', kind: 'device', macAddress, deviceTypeId: body.deviceTypeId });
  return d;
}

/**
 * Document 2, assign a SIP device to a subscriber, before its transaction: the device (above), not
 * assigned to another subscriber (409), then its account enabled (issue 25, point 8: assigning
 * reconfigures the device).
 */
export async function prepareAssign(
  exec: Executor,
  voice: VoicePort,
  sealKey: Buffer,
  pbx: CloudPbxRow,
  subscriberId: string,
  body: AssignInput,
): Promise<PreparedAssign> {
  const d = await deviceToAssign(exec, pbx, body);
  if (d.subscriberId !== null && d.subscriberId !== subscriberId)
    fail('DEVICE_ASSIGNED', { id: d.id, phoneNumberId: d.subscriberId });
  return { deviceId: d.id, account: await enableAccount(voice, sealKey, pbx, d) };
}

export async function assignDevice(
  db: Executor,
  pbx: CloudPbxRow,
  subscriberId: string,
  prepared: PreparedAssign,
  c: AnswerContext,
) {
  return db.transaction(async (tx) => {
    // Issue 26, point 1: the CloudPBX's lock first, as the changes of its groups take it (their
    // service keys go on the devices of assistants).
    if (!(await lockCloudPbx(tx, pbx.id))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
    const current =
      (await repo.lockDevice(tx, pbx.id, prepared.deviceId)) ??
      fail('UNKNOWN_REFERENCE', { field: 'deviceId', kind: 'device', id: prepared.deviceId });
    if (current.subscriberId !== null && current.subscriberId !== subscriberId)
      fail('DEVICE_ASSIGNED', { id: current.id, phoneNumberId: current.subscriberId });
    const row =
      (await repo.updateDeviceRow(tx, current.id, { subscriberId, resetDate: null })) ??
      fail('NOT_FOUND', { target: 'device', id: current.id });
    // Issue 26, point 1: a device assigned to an assistant gets the service keys of its groups.
    await syncServiceKeys(tx, pbx.id);
    await emitPbxChange(tx, pbx.id, 'device', 'update', changeFields(row, 'assign'));
    return toApiDevice(await viewOrGone(tx, pbx.id, row.id), c, true);
  });
}

/** An assignment that failed after enabling the account: disabled again, as it was. */
export const undoAssign = (voice: VoicePort, prepared: PreparedAssign) => async () => {
  if (prepared.account !== 'enabled') await voice.setDeviceAccountEnabled(prepared.deviceId, false);
};

/**
 * Unassign a device from a subscriber (routes.md): the device must be assigned to that subscriber
 * (404 otherwise); its account is disabled first (issue 25, point 8: "unassigning the device
 * removes or disables it").
 */
export async function unassignDevice(
  db: Executor,
  voice: VoicePort,
  pbx: CloudPbxRow,
  device: repo.DeviceRow,
  subscriberId: string,
) {
  const notHere = () =>
    fail('NOT_FOUND', { target: 'device', id: device.id, reason: 'not assigned to this subscriber', subscriberId });
  if (device.subscriberId !== subscriberId) notHere();
  await disableAccount(voice, device.id);
  await db.transaction(async (tx) => {
    if (!(await lockCloudPbx(tx, pbx.id))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
    const current = await repo.lockDevice(tx, pbx.id, device.id);
    if (current?.subscriberId !== subscriberId) notHere();
    const row = await repo.updateDeviceRow(tx, device.id, { subscriberId: null });
    // Issue 26, point 1: the service keys it held for its subscriber's groups go.
    await syncServiceKeys(tx, pbx.id);
    if (row) await emitPbxChange(tx, pbx.id, 'device', 'update', changeFields(row, 'unassign'));
  });
  return { status: `SIP device ${device.id} unassigned from subscriber ${subscriberId}`, data: [] };
}
