// Rules of the phone numbers of a system (document 3, Phone numbers of a system; document 1,
// Gateway notifications; decisions in docs/decisions.md, "Telephone systems").
import countries from 'i18n-iso-countries/index.js';
import { isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Static } from 'typebox';
import type { Caller } from '../../authz/roles.ts';
import type { Executor } from '../../db/client.ts';

import { fail } from '../../errors/catalogue.ts';
import { phoneNumberUpdate } from '../../events/stanzas.ts';
import { newId } from '../../shared/ids.ts';
import { askGateway, type SystemsXmpp } from './gateway.ts';
import * as repo from './phone-numbers.repo.ts';
import * as systemsRepo from './systems.repo.ts';
import { newSecret } from './systems.service.ts';
import { companyFacts } from '../admin/companies/companies.api.ts';
import { userJid } from '../admin/users/users.api.ts';
import type { CreatePhoneNumbersBody, UpdatePhoneNumberBody } from './phone-numbers.schemas.ts';

export function toApiPhoneNumber(n: repo.PhoneNumberRow) {
  return {
    id: n.id,
    systemId: n.systemId,
    pbxId: n.pbxId,
    pbxUserId: n.pbxUserId,
    shortNumber: n.shortNumber,
    internalNumber: n.internalNumber,
    voiceMailNumber: n.voiceMailNumber,
    number: n.number,
    numberE164: n.numberE164,
    country: n.country,
    type: n.type,
    deviceType: n.deviceType,
    deviceName: n.deviceName,
    firstName: n.firstName,
    lastName: n.lastName,
    isFromSystem: n.isFromSystem,
    isMonitored: n.isMonitored,
    isVisibleByOthers: n.isVisibleByOthers,
    isNomadic: n.isNomadic,
    isVoipNomadic: n.isVoipNomadic,
    isNomadicModeInitialized: n.isNomadicModeInitialized,
    userId: n.userId,
    jid_im: n.jidIm,
    jid_tel: n.jidTel,
    jid_password: n.jidPassword,
    svcNumber: n.svcNumber,
    userType: n.userType,
    companyPrefix: n.companyPrefix,
  };
}

/** Document 3: the E.164 form of a raw DDI in the company's country (alpha-3), or 400. */
export function toE164(number: string, countryAlpha3: string | null | undefined): string {
  const alpha2 = countryAlpha3 ? countries.alpha3ToAlpha2(countryAlpha3.toUpperCase()) : undefined;
  const region = alpha2 && isSupportedCountry(alpha2) ? alpha2 : undefined;
  const parsed = parsePhoneNumberFromString(number, region);
  if (!parsed || !parsed.isValid()) fail('PHONE_NUMBER_E164_UNCOMPUTABLE', { number, country: countryAlpha3 ?? null });
  return parsed.number;
}

const UNRESTRICTED_ROLES = new Set(['superadmin', 'support', 'bp_admin', 'organization_admin']);

/**
 * Document 3: on a multi-tenant system a company admin or site admin sees only the numbers whose
 * companyPrefix is his company's tenant call number (companyCallNumber). Returns that number for
 * such a caller, undefined for one who sees them all.
 */
export async function tenantRestriction(
  exec: Executor,
  caller: Caller,
  system: { isCentrex: boolean },
): Promise<string | null | undefined> {
  if (!system.isCentrex || caller.roles.some((r) => UNRESTRICTED_ROLES.has(r))) return undefined;
  return (await companyFacts(exec, caller.companyId))?.companyCallNumber ?? null;
}

/** Document 3, get phone number: 404 to a tenant admin whose call number is not its companyPrefix. */
export async function visiblePhoneNumber(
  exec: Executor,
  caller: Caller,
  system: { isCentrex: boolean },
  n: repo.PhoneNumberRow,
): Promise<repo.PhoneNumberRow> {
  const tenant = await tenantRestriction(exec, caller, system);
  if (tenant !== undefined && (tenant === null || n.companyPrefix !== tenant))
    fail('NOT_FOUND', { target: 'systemPhoneNumber', id: n.id });
  return n;
}

/** createSystemPhoneNumbers (+): the numbers a system reports, created or updated by shortNumber. */
export async function createPhoneNumbers(
  db: Executor,
  system: systemsRepo.SystemRow,
  body: Static<typeof CreatePhoneNumbersBody>,
) {
  const company = await companyFacts(db, system.companyId);
  const rows = body.phoneNumbers.map((p): repo.NewPhoneNumber => ({
    id: newId(),
    systemId: system.id,
    pbxId: system.pbxId,
    pbxUserId: p.pbxUserId ?? null,
    shortNumber: p.shortNumber,
    // Document 3: internalNumber defaults to the short number.
    internalNumber: p.internalNumber ?? p.shortNumber,
    voiceMailNumber: p.voiceMailNumber ?? null,
    number: p.number ?? null,
    numberE164: p.number ? toE164(p.number, company?.country) : null,
    country: company?.country ?? null,
    type: p.type ?? 'work',
    deviceType: p.deviceType ?? 'landline',
    deviceName: p.deviceName ?? null,
    firstName: p.firstName ?? null,
    lastName: p.lastName ?? null,
    isFromSystem: true,
    companyPrefix: p.companyPrefix ?? null,
    userType: p.userType ?? null,
  }));
  return db.transaction(async (exec) => (await repo.upsertPhoneNumbers(exec, rows)).map(toApiPhoneNumber));
}

const READ_ONLY = [
  ['pbxId', 'pbxId'],
  ['systemId', 'systemId'],
  ['shortNumber', 'shortNumber'],
  ['pbxUserId', 'pbxUserId'],
] as const;

/**
 * Document 3, update a phone number, and document 1, Gateway notifications: the gateway is sent
 * the `iq` with the number as it will be, and the change is stored and answered only after it
 * acknowledges. A refusal (502) or a silence (504) leaves the number as it was.
 */
export async function updatePhoneNumber(
  db: Executor,
  xmpp: Pick<SystemsXmpp, 'request' | 'userDomain'>,
  caller: Caller,
  system: systemsRepo.SystemRow,
  n: repo.PhoneNumberRow,
  body: Static<typeof UpdatePhoneNumberBody>,
) {
  await visiblePhoneNumber(db, caller, system, n);
  for (const [field, col] of READ_ONLY)
    if (body[field] !== undefined && body[field] !== n[col]) fail('PHONE_NUMBER_FIELD_READ_ONLY', { field });
  if (system.isCentrex && body.internalNumber !== undefined && body.internalNumber !== n.internalNumber)
    fail('PHONE_NUMBER_INTERNAL_READ_ONLY', { field: 'internalNumber' });
  const patch: Partial<repo.NewPhoneNumber> = {};
  for (const k of [
    'deviceName',
    'firstName',
    'lastName',
    'isMonitored',
    'isVisibleByOthers',
    'deviceType',
    'type',
  ] as const)
    if (body[k] !== undefined) Object.assign(patch, { [k]: body[k] });
  if (body.internalNumber !== undefined) patch.internalNumber = body.internalNumber;
  if (body.number !== undefined) {
    const company = await companyFacts(db, system.companyId);
    patch.number = body.number;
    patch.numberE164 = body.number === null ? null : toE164(body.number, company?.country);
  }
  if (body.userId !== undefined && body.userId !== n.userId) {
    // Document 3: setting userId fills jid_im, jid_tel, jid_password and svcNumber from the user.
    const user = body.userId === null ? undefined : await userJid(db, body.userId);
    if (body.userId !== null && !user) fail('UNKNOWN_REFERENCE', { field: 'userId' });
    patch.userId = user?.id ?? null;
    patch.jidIm = user?.jidIm ?? null;
    patch.jidTel = user ? `tel_${user.id}@${xmpp.userDomain}` : null;
    patch.jidPassword = user ? newSecret() : null;
    patch.svcNumber = user ? (patch.internalNumber ?? n.internalNumber) : null;
  }
  const next = { ...n, ...patch };
  await askGateway(
    xmpp.request,
    system.jidPbxpcg,
    phoneNumberUpdate({
      shortNumber: next.shortNumber,
      internalNumber: next.internalNumber,
      voiceMailNumber: next.voiceMailNumber,
      numberE164: next.numberE164,
      isMonitored: next.isMonitored,
      userId: next.userId,
      jid_im: next.jidIm,
      jid_tel: next.jidTel,
      jid_password: next.jidPassword,
    }),
  );
  if (Object.keys(patch).length === 0) return toApiPhoneNumber(n);
  const row = await db.transaction((exec) => repo.updatePhoneNumberRow(exec, n.id, patch));
  if (!row) fail('NOT_FOUND', { target: 'systemPhoneNumber', id: n.id });
  return toApiPhoneNumber(row);
}
