// Rules of the DDI numbers of a CloudPBX (document 2, "Phone number (DDI) of a CloudPBX", "Phone
// numbers (DDI)" and the DDI rows of "States and transitions"; decisions in docs/decisions.md,
// "CloudPBX: DDI numbers"). Every change of a PBX's DDIs takes the PBX's row lock first, so that
// the one default DDI is decided by one change at a time; the gateway is told of each change
// (emitPbxChange) last in its transaction.
import countries from 'i18n-iso-countries/index.js';
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import { sql } from 'drizzle-orm';
import type { Caller } from '../../authz/roles.ts';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { newId, randomSecret } from '../../shared/ids.ts';
import { overCompany } from '../admin/companies/companies.api.ts';
import { userJid } from '../admin/users/users.api.ts';
import { systemsByIds } from '../systems/systems.api.ts';
import * as repo from './ddis.repo.ts';
import { lockCloudPbx } from './pbx.repo.ts';
import { emitPbxChange } from './pbx.events.ts';

/** Document 2, Phone number (DDI) of a CloudPBX: every field. */
export function toApiDdi(v: repo.DdiView) {
  const d = v.row;
  return {
    id: d.id,
    systemId: d.cloudPbxId,
    pbxId: v.pbxId,
    externalTrunkId: v.externalTrunkId,
    userId: d.userId,
    number: d.number,
    numberE164: d.numberE164,
    country: d.country,
    deviceName: null,
    firstName: v.user?.firstName ?? null,
    lastName: v.user?.lastName ?? null,
    userDisplayName: v.user?.displayName ?? null,
    // Welcome services are not served yet: a DDI is never assigned to one.
    welcomeName: v.welcomeName,
    names: v.user ? [v.user.displayName] : [],
    type: d.type === 'home' || d.type === 'other' ? d.type : ('work' as const),
    deviceType:
      d.deviceType === 'mobile' || d.deviceType === 'fax' || d.deviceType === 'other'
        ? d.deviceType
        : ('landline' as const),
    // Document 2: a DDI of a CloudPBX is made here, never reported by a system.
    isFromSystem: false,
    isMonitored: d.isMonitored,
    isVisibleByOthers: d.isVisibleByOthers,
    isCloudPbxDefault: d.isCloudPbxDefault,
    isCloudPbxDDI: true,
    creationDate: d.creationDate,
    jid_im: d.jidIm,
    jid_tel: d.jidTel,
    jid_password: d.jidPassword,
    vcpGroupId: d.vcpGroupId,
    vcpIVRId: d.vcpIvrId,
    vcpAutoAttendantId: d.vcpAutoAttendantId,
  };
}

export type ApiDdi = ReturnType<typeof toApiDdi>;

/** The fields the gateway is told of (issue 25, point 9): no secret. */
const changeFields = (d: repo.DdiRow) => ({
  id: d.id,
  numberE164: d.numberE164,
  userId: d.userId,
  isCloudPbxDefault: d.isCloudPbxDefault,
});

async function answer(exec: Executor, cloudPbxId: string, id: string): Promise<ApiDdi> {
  const v = await repo.readDdiView(exec, cloudPbxId, id);
  if (!v) fail('NOT_FOUND', { target: 'ddi', id });
  return toApiDdi(v);
}

/** Document 2, create DDI: the E.164 form of the number in the company's country (alpha-3), or 400 naming `number`. */
export function toE164(number: string, countryAlpha3: string | null | undefined): string {
  const alpha2: string | undefined = countryAlpha3 ? countries.alpha3ToAlpha2(countryAlpha3.toUpperCase()) : undefined;
  const region: CountryCode | undefined = alpha2 && isSupportedCountry(alpha2) ? alpha2 : undefined;
  const parsed = parsePhoneNumberFromString(number, region);
  if (!parsed || !parsed.isValid()) fail('DDI_NUMBER_INVALID', { field: 'number', country: countryAlpha3 ?? null });
  return parsed.number;
}

/**
 * Document 2, create and delete DDI: "When the VAD has set ddiReadOnly true on an IR company, the
 * bp_admin of that IR company cannot create [or delete] DDI". The PBX's company is an End
 * Customer of a BP IR company whose ddiReadOnly is true, and the caller is a bp_admin of that IR
 * company whose only grant on the PBX is his BP's (customerOfOwnBp): a superadmin, or an admin of
 * the PBX's company or of its organisation, still may. 403 403810.
 */
async function checkDdiWritable(exec: Executor, caller: Caller, companyId: string): Promise<void> {
  if (!caller.roles.includes('bp_admin') || caller.roles.includes('superadmin')) return;
  if (!caller.companyIsBP || caller.companyBpType !== 'IR') return;
  const company = await overCompany<{ bpId: string | null; organisationId: string | null }>(exec, companyId, {
    bpId: sql`t.bp_id`,
    organisationId: sql`t.organisation_id`,
  });
  if (!company || company.bpId !== caller.companyId) return;
  if (caller.roles.includes('company_admin') && caller.companyId === companyId) return;
  if (
    caller.roles.includes('organization_admin') &&
    caller.organisationId !== null &&
    caller.organisationId === company.organisationId
  )
    return;
  const bp = await overCompany<{ ddiReadOnly: boolean | null }>(exec, caller.companyId, {
    ddiReadOnly: sql`t.ddi_read_only`,
  });
  if (bp?.ddiReadOnly === true) fail('DDI_READ_ONLY', { companyId: caller.companyId });
}

/** The system of the CloudPBX (its company, its pbxId), or 404 when gone meanwhile. */
async function systemOf(exec: Executor, cloudPbxId: string) {
  const [system] = await systemsByIds(exec, [cloudPbxId]);
  if (!system) fail('NOT_FOUND', { target: 'cloudpbx', id: cloudPbxId });
  return system;
}

const NUMBER_UQ = 'pbx_ddis_number_e164_uq';

/**
 * Document 2, create DDI: `number` normalised to E.164 with the company's country, unique across
 * the platform whatever its spelling (409; two creations at once: the unique index decides, and
 * the loser gets the same 409). The first DDI of a CloudPBX becomes its default.
 */
export async function createDdi(
  db: Executor,
  caller: Caller,
  pbx: { id: string },
  body: { number: string },
  now: Date,
): Promise<ApiDdi> {
  const system = await systemOf(db, pbx.id);
  await checkDdiWritable(db, caller, system.companyId);
  const company = await overCompany<{ country: string | null }>(db, system.companyId, { country: sql`t.country` });
  const number = body.number.trim();
  const numberE164 = toE164(number, company?.country);
  const id = newId();
  try {
    await db.transaction(async (tx) => {
      if (!(await lockCloudPbx(tx, pbx.id))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
      if (await repo.ddiWithNumber(tx, numberE164)) fail('DDI_NUMBER_TAKEN', { field: 'number', numberE164 });
      const isCloudPbxDefault = (await repo.countDdis(tx, pbx.id)) === 0;
      const row: repo.DdiRow = {
        id,
        cloudPbxId: pbx.id,
        number,
        numberE164,
        country: company?.country ?? null,
        type: 'work',
        deviceType: 'landline',
        isCloudPbxDefault,
        isMonitored: false,
        isVisibleByOthers: true,
        userId: null,
        jidIm: null,
        jidTel: null,
        jidPassword: null,
        vcpGroupId: null,
        vcpIvrId: null,
        vcpAutoAttendantId: null,
        creationDate: now,
      };
      await repo.insertDdi(tx, row);
      await emitPbxChange(tx, pbx.id, 'ddi', 'create', changeFields(row));
    });
  } catch (err) {
    if (repo.isUniqueViolation(err, NUMBER_UQ)) fail('DDI_NUMBER_TAKEN', { field: 'number', numberE164 });
    throw err;
  }
  return answer(db, pbx.id, id);
}

/**
 * Document 2, delete DDI: the default DDI only when it is the last one (409 otherwise); an
 * assigned DDI is unassigned first (the gateway is told of both changes).
 */
export async function deleteDdi(db: Executor, caller: Caller, pbx: { id: string }, ddi: { id: string }): Promise<void> {
  const system = await systemOf(db, pbx.id);
  await checkDdiWritable(db, caller, system.companyId);
  await withLockedDdi(db, pbx.id, ddi.id, async (tx, d) => {
    if (d.isCloudPbxDefault && (await repo.countDdis(tx, pbx.id)) > 1)
      fail('DDI_DEFAULT_NOT_LAST', { phoneNumberId: d.id });
    if (d.userId !== null) {
      const unassigned = { ...d, ...UNASSIGNED };
      await repo.updateDdi(tx, d.id, UNASSIGNED);
      await emitPbxChange(tx, pbx.id, 'ddi', 'update', changeFields(unassigned));
    }
    await repo.deleteDdiRow(tx, d.id);
    await emitPbxChange(tx, pbx.id, 'ddi', 'delete', changeFields({ ...d, ...UNASSIGNED }));
  });
}

/** Document 2, set the default DDI: the one default moves (the old one cleared first, in the same transaction). */
export async function setDefaultDdi(db: Executor, pbx: { id: string }, ddi: { id: string }): Promise<ApiDdi> {
  await withLockedDdi(db, pbx.id, ddi.id, async (tx, d) => {
    if (d.isCloudPbxDefault) return;
    const old = await repo.defaultDdi(tx, pbx.id);
    // The partial unique index pbx_ddis_default_uq holds one default per PBX: clear the old first.
    if (old) await repo.updateDdi(tx, old.id, { isCloudPbxDefault: false });
    await repo.updateDdi(tx, d.id, { isCloudPbxDefault: true });
    if (old) await emitPbxChange(tx, pbx.id, 'ddi', 'update', changeFields({ ...old, isCloudPbxDefault: false }));
    await emitPbxChange(tx, pbx.id, 'ddi', 'update', changeFields({ ...d, isCloudPbxDefault: true }));
  });
  return answer(db, pbx.id, ddi.id);
}

const UNASSIGNED = { userId: null, jidIm: null, jidTel: null, jidPassword: null } as const;

/**
 * Runs `change` in a transaction that holds the CloudPBX's row and then the DDI's (in that order,
 * as every change of the PBX's numbers takes them): either gone is 404.
 */
function withLockedDdi(
  db: Executor,
  pbxId: string,
  ddiId: string,
  change: (tx: Executor, d: repo.DdiRow) => Promise<void>,
): Promise<void> {
  return db.transaction(async (tx) => {
    if (!(await lockCloudPbx(tx, pbxId))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbxId });
    const d = (await repo.lockDdi(tx, pbxId, ddiId)) ?? fail('NOT_FOUND', { target: 'ddi', id: ddiId });
    await change(tx, d);
  });
}

/**
 * Document 2, associate a DDI to a user (States and transitions: "userId set; the first
 * association may set isCloudPbxDefault"). The user must be a subscriber of this CloudPBX (409
 * 409812); a DDI assigned to another user, group, welcome service or auto attendant is 409
 * 409813; the same user again changes nothing. jid_im is the user's, jid_tel and jid_password
 * are made as for a system's phone number (document 3: `tel_<userId>@<users' domain>`, a new
 * secret). When the user holds no other DDI of the PBX and the PBX has no default DDI, this one
 * becomes the default.
 */
export async function assignDdi(
  db: Executor,
  userDomain: string,
  pbx: { id: string },
  ddi: { id: string },
  userId: string,
): Promise<ApiDdi> {
  await withLockedDdi(db, pbx.id, ddi.id, async (tx, d) => {
    if (d.userId === userId) return;
    if (d.userId !== null || d.vcpGroupId !== null || d.vcpIvrId !== null || d.vcpAutoAttendantId !== null)
      fail('DDI_ALREADY_ASSIGNED', { phoneNumberId: d.id, userId: d.userId });
    if (!(await repo.isSubscriberOf(tx, pbx.id, userId)))
      fail('DDI_USER_NOT_SUBSCRIBER', { field: 'userId', userId, systemId: pbx.id });
    const user = (await userJid(tx, userId)) ?? fail('NOT_FOUND', { target: 'user', id: userId });
    const becomesDefault =
      !(await repo.userHasOtherDdi(tx, pbx.id, userId, d.id)) && !(await repo.defaultDdi(tx, pbx.id));
    const patch = {
      userId,
      jidIm: user.jidIm,
      jidTel: `tel_${user.id}@${userDomain}`,
      jidPassword: randomSecret(),
      ...(becomesDefault ? { isCloudPbxDefault: true } : {}),
    };
    await repo.updateDdi(tx, d.id, patch);
    await emitPbxChange(tx, pbx.id, 'ddi', 'update', changeFields({ ...d, ...patch }));
  });
  return answer(db, pbx.id, ddi.id);
}

/**
 * Document 2, disassociate: userId, jid_im, jid_tel and jid_password cleared. A DDI assigned to
 * another user is 409 409814; an unassigned one is answered as it is.
 */
export async function unassignDdi(
  db: Executor,
  pbx: { id: string },
  ddi: { id: string },
  userId: string,
): Promise<ApiDdi> {
  await withLockedDdi(db, pbx.id, ddi.id, async (tx, d) => {
    if (d.userId === null) return;
    if (d.userId !== userId) fail('DDI_NOT_ASSIGNED_TO_USER', { phoneNumberId: d.id, userId });
    await repo.updateDdi(tx, d.id, UNASSIGNED);
    await emitPbxChange(tx, pbx.id, 'ddi', 'update', changeFields({ ...d, ...UNASSIGNED }));
  });
  return answer(db, pbx.id, ddi.id);
}
