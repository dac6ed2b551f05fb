// The face of the pbx module (docs/architecture.md, "Modules"): what other modules use of the
// hosted PBX. Today the bulk import's voice mode (issue 27, point 2: src/modules/imports/
// voice-lines.ts) runs the operations below for its caller (src/http/run-command.ts) and reads
// the few facts its lines decide on: the company's CloudPBX, a user's subscriber, DDI numbers and
// SIP devices. The reads take the executor of the line (its transaction).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { holdsServiceLicence } from '../commerce/commerce.api.ts';
import { overCompany } from '../admin/companies/companies.api.ts';
import { companySystemIds, systemsByIds } from '../systems/systems.api.ts';
import { cloudPbxs } from './pbx.tables.ts';
import { subscribers } from './subscribers.tables.ts';
import { ddis } from './ddis.tables.ts';
import { devices } from './devices.tables.ts';
import { creationConflicts } from './subscribers.repo.ts';
import { inPlan, rangesOf } from './numbering.service.ts';
import { toE164 } from './ddis.service.ts';
import { modelOf, normaliseMac } from './devices.service.ts';
import { GENERIC_SIP_MODEL_ID } from './options.data.ts';

export { createSubscriber, deleteSubscriber, updateSubscriberSipHeaders } from './subscribers.operations.ts';
export { createDdi, assignDdiToUser, unassignDdiFromUser } from './ddis.operations.ts';
export { createDevice, assignDeviceToSubscriber, unassignDeviceFromSubscriber } from './devices.operations.ts';
export { normaliseMac, modelOf, GENERIC_SIP_MODEL_ID };
export type { CloudPbxRow } from './pbx.repo.ts';

/** The CloudPBX of the company (document 2: a company has at most one), or undefined. */
export async function cloudPbxOfCompany(exec: Executor, companyId: string) {
  const ids = await companySystemIds(exec, companyId, 'cloud_pbx');
  for (const id of ids) {
    const [row] = await exec.select().from(cloudPbxs).where(eq(cloudPbxs.id, id));
    if (row) return row;
  }
  return undefined;
}

/** The user's subscriber on that CloudPBX, or undefined. */
export async function subscriberOfUser(exec: Executor, cloudPbxId: string, userId: string) {
  const [r] = await exec
    .select({
      id: subscribers.id,
      shortNumber: subscribers.shortNumber,
      vcpSubscriberId: subscribers.vcpSubscriberId,
      customSipHeader1: subscribers.customSipHeader1,
      customSipHeader2: subscribers.customSipHeader2,
    })
    .from(subscribers)
    .where(and(eq(subscribers.cloudPbxId, cloudPbxId), eq(subscribers.userId, userId)));
  return r;
}

/**
 * What createSubscriber would refuse before it asks the voice platform, for a check that writes
 * nothing (issue 27, point 3): the number out of the plan (400820), no service licence (409820),
 * the user a subscriber already (409821), the number taken (409822). Throws its AppError.
 */
export async function checkSubscriberCreation(
  exec: Executor,
  pbx: { id: string; numberingPrefixes: string[]; numberingDigits: number | null },
  userId: string | null,
  shortNumber: string,
): Promise<void> {
  if (!inPlan(pbx, shortNumber))
    fail('PBX_SHORT_NUMBER_OUT_OF_PLAN', { field: 'shortNumber', shortNumber, ranges: rangesOf(pbx) });
  if (userId !== null && !(await holdsServiceLicence(exec, userId))) fail('PBX_SUBSCRIBER_NO_LICENCE', { userId });
  const c = await creationConflicts(exec, pbx.id, userId ?? '', Number(shortNumber));
  if (c.userTaken) fail('PBX_USER_ALREADY_SUBSCRIBER', { userId });
  if (c.numberTaken) fail('PBX_SHORT_NUMBER_TAKEN', { field: 'shortNumber', shortNumber });
}

/** A DDI number in the E.164 form createDdi stores for that CloudPBX (its company's country); 400810 when invalid. */
export async function ddiE164(exec: Executor, cloudPbxId: string, number: string): Promise<string> {
  const [system] = await systemsByIds(exec, [cloudPbxId]);
  if (!system) fail('NOT_FOUND', { target: 'cloudpbx', id: cloudPbxId });
  const company = await overCompany<{ country: string | null }>(exec, system.companyId, { country: sql`t.country` });
  return toE164(number.trim(), company?.country);
}

/** The DDI number of the platform with that E.164 form (numbers are unique on the platform), or undefined. */
export async function ddiWithE164(exec: Executor, numberE164: string) {
  const [r] = await exec
    .select({ id: ddis.id, cloudPbxId: ddis.cloudPbxId, userId: ddis.userId, numberE164: ddis.numberE164 })
    .from(ddis)
    .where(eq(ddis.numberE164, numberE164));
  return r;
}

/** The DDI numbers of the CloudPBX assigned to the user. */
export async function ddisOfUser(exec: Executor, cloudPbxId: string, userId: string) {
  return exec
    .select({ id: ddis.id, numberE164: ddis.numberE164 })
    .from(ddis)
    .where(and(eq(ddis.cloudPbxId, cloudPbxId), eq(ddis.userId, userId)))
    .orderBy(asc(ddis.numberE164));
}

const DEVICE_KEYS = {
  id: devices.id,
  cloudPbxId: devices.cloudPbxId,
  macAddress: devices.macAddress,
  deviceTypeId: devices.deviceTypeId,
  subscriberId: devices.subscriberId,
} as const;

/** The SIP device of the platform with that MAC address (normalised; unique on the platform), or undefined. */
export async function deviceWithMac(exec: Executor, macAddress: string) {
  const [r] = await exec.select(DEVICE_KEYS).from(devices).where(eq(devices.macAddress, macAddress));
  return r;
}

/** The SIP devices assigned to the subscriber. */
export async function devicesOfSubscriber(exec: Executor, subscriberId: string) {
  return exec.select(DEVICE_KEYS).from(devices).where(eq(devices.subscriberId, subscriberId)).orderBy(asc(devices.id));
}
