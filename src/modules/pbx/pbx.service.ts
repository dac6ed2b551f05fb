// Rules of the CloudPBX (document 2, CloudPBX; routes.md, CloudPBX; decisions in docs/decisions.md,
// "CloudPBX"). A CloudPBX is a telephone system of type `cloud_pbx` (the systems module's row,
// made and deleted through its face) with its settings in pbx_cloudpbxs and a tenant of the
// company on the voice platform (ports.voice), made with it and deleted with it.
import type { Static } from 'typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { Caller } from '../../authz/roles.ts';
import { checkReference } from '../../authz/references.ts';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { PortFailure } from '../../ports/control.ts';
import type { VoicePort } from '../../ports/voice/voice.port.ts';
import type { XmppAccounts } from '../../xmpp/accounts.ts';
import { lockCompany } from '../admin/companies/companies.api.ts';
import {
  countCompanySystemsOfType,
  deleteSystemWithAccounts,
  insertSystemWithAccounts,
  lockSystemRow,
  renameSystem,
  systemsByIds,
  type SystemRow,
  type SystemsXmpp,
} from '../systems/systems.api.ts';
import * as repo from './pbx.repo.ts';
import * as subscribersRepo from './subscribers.repo.ts';
import { deviceIdsOf } from './devices.repo.ts';
import { vcpInstanceFor } from './pbx.instances.ts';
import { checkTrunkLink, type LinkRequest, type LinkState } from './trunks.service.ts';
import type { CreateCloudPbxBody, UpdateCloudPbxBody } from './pbx.schemas.ts';

type CreateBody = Static<typeof CreateCloudPbxBody>;
type UpdateBody = Static<typeof UpdateCloudPbxBody>;

/** The name in Latin letters: accents and other combining marks removed. */
const latinName = (name: string) => name.normalize('NFD').replace(/\p{M}/gu, '');

/** A prefix as its digits (clients of the original interface send numbers). */
const digitsOf = (p: string | number) => String(p);

/** The columns of its system that a CloudPBX's answer shows (toApiCloudPbx reads no other). */
export const CLOUDPBX_SYSTEM_COLUMNS = [
  'id',
  'pbxId',
  'name',
  'siteIds',
  'companyId',
  'bpId',
  'country',
  'status',
  'creationDate',
  'statusUpdatedDate',
  'jidPbxagent',
  'jidPbxagentPassword',
  'jidPbxpcg',
  'jidPbxpcgPassword',
] as const satisfies readonly (keyof SystemRow)[];
export type CloudPbxSystem = Pick<SystemRow, (typeof CLOUDPBX_SYSTEM_COLUMNS)[number]>;

/** Document 2, CloudPBX: the system's fields and the `cloudpbx` object. */
export function toApiCloudPbx(s: CloudPbxSystem, p: repo.CloudPbxRow) {
  return {
    id: s.id,
    pbxId: s.pbxId,
    name: s.name,
    latin_name: latinName(s.name),
    type: 'cloud_pbx' as const,
    siteId: s.siteIds,
    companyId: s.companyId,
    bpId: s.bpId,
    vcpInstanceId: p.vcpInstanceId,
    country: s.country,
    status: s.status,
    creationDate: s.creationDate,
    statusUpdatedDate: s.statusUpdatedDate,
    // Blocking a CloudPBX is not served yet: never blocked.
    blockedDate: null,
    jid_pbxagent: s.jidPbxagent,
    jid_pbxagent_password: s.jidPbxagentPassword,
    jid_pbxpcg: s.jidPbxpcg,
    jid_pbxpcg_password: s.jidPbxpcgPassword,
    cloudpbx: {
      outgoingPrefix: p.outgoingPrefix,
      numberingPrefix: p.numberingPrefixes[0] ?? null,
      numberingPrefixes: p.numberingPrefixes,
      numberingDigits: p.numberingDigits,
      installationNumber: p.installationNumber,
      installationNumberId: p.installationNumberId,
      domainName: p.domainName,
      vcpNumber: p.vcpTenantId,
      externalTrunkId: p.externalTrunkId,
      language: p.language,
      customSipHeader_1: p.customSipHeader1,
      customSipHeader_2: p.customSipHeader2,
      overflowSubscribersToVoicemail: p.overflow,
      barringOptions: p.barringOptions,
      cliOptions: p.cliOptions,
      emergencyOptions: p.emergencyOptions,
      callForwardOptions: p.callForwardOptions,
      // The password is a secret: answered only by getPeerAuthentication and updatePeerAuthentication.
      peerAuthenticationOptions: {
        username: p.peerAuthenticationOptions?.username ?? null,
        password: null,
        realm: p.peerAuthenticationOptions?.realm ?? null,
      },
      allowCloudPbxRecording: p.allowCloudPbxRecording,
      routeInternalCallsToPeer: p.routeInternalCallsToPeer,
      callForkingToPstnNumber: p.callForkingToPstnNumber,
      monolineIncomingMode: p.monolineIncomingMode,
      emulatedRingBackTone: p.emulatedRingBackTone,
    },
  };
}

/** CloudPBXs as the API shows them, their systems read in one statement. */
export async function toApiCloudPbxs(exec: Executor, rows: repo.CloudPbxRow[]) {
  const systems = new Map(
    (
      await systemsByIds(
        exec,
        rows.map((r) => r.id),
      )
    ).map((s) => [s.id, s]),
  );
  return rows.flatMap((r) => {
    const s = systems.get(r.id);
    return s ? [toApiCloudPbx(s, r)] : [];
  });
}

/** A CloudPBX with its system: the one given (read with the authorisation), else read here. */
export async function readCloudPbx(exec: Executor, pbx: repo.CloudPbxRow, system?: CloudPbxSystem) {
  const s = system ?? (await systemsByIds(exec, [pbx.id]))[0];
  if (!s) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
  return toApiCloudPbx(s, pbx);
}

/**
 * The numbering plan a request leaves: document 2, create and update CloudPBX, "if
 * numberingPrefixes is given and non-empty, numberingDigits is required" (in the same request);
 * `numberingPrefix` alone replaces the first prefix and needs digits, given or already stored.
 */
function numberingOf(
  body: Pick<UpdateBody, 'numberingPrefix' | 'numberingPrefixes' | 'numberingDigits'>,
  current: { prefixes: string[]; digits: number | null },
): { prefixes: string[]; digits: number | null } {
  if (body.numberingPrefixes !== undefined) {
    const prefixes = [...new Set(body.numberingPrefixes.map(digitsOf))];
    if (prefixes.length > 0 && body.numberingDigits === undefined)
      fail('PBX_NUMBERING_DIGITS_REQUIRED', { field: 'numberingDigits', numberingPrefixes: prefixes });
    return { prefixes, digits: body.numberingDigits ?? current.digits };
  }
  const digits = body.numberingDigits ?? current.digits;
  if (body.numberingPrefix !== undefined) {
    const first = digitsOf(body.numberingPrefix);
    if (digits === null) fail('PBX_NUMBERING_DIGITS_REQUIRED', { field: 'numberingDigits', numberingPrefix: first });
    return { prefixes: [first, ...current.prefixes.slice(1).filter((p) => p !== first)], digits };
  }
  return { prefixes: current.prefixes, digits };
}

/** A CloudPBX being created links nothing yet. */
const NO_LINK: LinkState = {
  externalTrunkId: null,
  outgoingPrefix: null,
  callForkingToPstnNumber: 'not_available',
  routeInternalCallsToPeer: false,
};

/** What a create or update body says of the link to an external trunk (trunks.service.ts, checkTrunkLink). */
const linkRequestOf = (body: CreateBody | UpdateBody): LinkRequest => ({
  externalTrunkId: body.externalTrunkId,
  outgoingPrefix: body.outgoingPrefix === undefined ? undefined : digitsOf(body.outgoingPrefix),
  callForkingToPstnNumber: body.callForkingToPstnNumber,
  routeInternalCallsToPeer: body.routeInternalCallsToPeer,
});

/** The one id of a body's siteId (a string, or an array of one). */
const siteIdOf = (body: CreateBody) => (Array.isArray(body.siteId) ? body.siteId[0] : body.siteId) ?? null;

/** What the creation's preparation made: the company's tenant on the voice platform. */
export interface PreparedCreation {
  tenantId: string;
}

/**
 * Document 2, create CloudPBX, before its transaction: the rules that read the request and the
 * database (numbering, the site of the company, one CloudPBX per company), then the tenant of the
 * company on the voice platform. No transaction is open while the platform answers (on the
 * embedded database, its one session would wait); the command undoes the tenant if it fails.
 */
export async function prepareCreation(
  exec: Executor,
  caller: Caller,
  voice: VoicePort,
  company: { id: string; name: string },
  body: CreateBody,
): Promise<PreparedCreation> {
  numberingOf(body, { prefixes: [], digits: null });
  // Document 2, the externalTrunkId rules (who links, the trunk's features, the outgoing prefix).
  await checkTrunkLink(exec, caller, NO_LINK, linkRequestOf(body), { lock: false });
  const siteId = siteIdOf(body);
  // The declared reference (pbx.operations.ts) is checked again before the command; here so that
  // no tenant is made for a request it refuses.
  if (siteId)
    await checkReference(exec, caller, 'siteId', 'site', [siteId], {
      rule: 'a site of the company the CloudPBX is created for',
      where: { companyId: company.id },
    });
  if ((await countCompanySystemsOfType(exec, company.id, 'cloud_pbx')) > 0)
    fail('PBX_COMPANY_HAS_CLOUDPBX', { companyId: company.id });
  try {
    const tenant = await voice.createTenant({ companyId: company.id, name: body.name ?? company.name });
    return { tenantId: tenant.id };
  } catch (err) {
    if (err instanceof PortFailure) fail('PBX_VOICE_PLATFORM_FAILED', { operation: 'createTenant' });
    throw err;
  }
}

/**
 * Document 2, create CloudPBX: its system (type `cloud_pbx`, at the site it is created for, with
 * its XMPP accounts) and its settings, in one transaction; the company's creations wait for each
 * other (a row lock on the company), so a second CloudPBX is refused (409) even at the same time.
 */
export async function createCloudPbx(
  db: Executor,
  caller: Caller,
  xmpp: Pick<SystemsXmpp, 'accounts' | 'userDomain'>,
  company: { id: string; name: string; country: string; bpId: string | null },
  body: CreateBody,
  prepared: PreparedCreation,
  vcpInstances: Record<string, string>,
  now: Date,
) {
  const numbering = numberingOf(body, { prefixes: [], digits: null });
  return db.transaction(async (tx) => {
    await lockCompany(tx, company.id);
    if ((await countCompanySystemsOfType(tx, company.id, 'cloud_pbx')) > 0)
      fail('PBX_COMPANY_HAS_CLOUDPBX', { companyId: company.id });
    const link = await checkTrunkLink(tx, caller, NO_LINK, linkRequestOf(body), { lock: true });
    const system = await insertSystemWithAccounts(tx, xmpp, {
      name: body.name ?? `${company.name} CloudPBX`,
      type: 'cloud_pbx',
      companyId: company.id,
      siteId: siteIdOf(body),
      bpId: company.bpId,
      country: company.country,
      now,
    });
    const pbx = await repo.insertCloudPbx(tx, {
      id: system.id,
      vcpInstanceId: vcpInstanceFor(company.country, vcpInstances),
      vcpTenantId: prepared.tenantId,
      language: body.language ?? 'en',
      numberingPrefixes: numbering.prefixes,
      numberingDigits: numbering.digits,
      outgoingPrefix: body.outgoingPrefix === undefined ? null : digitsOf(body.outgoingPrefix),
      customSipHeader1: body.customSipHeader_1 ?? null,
      customSipHeader2: body.customSipHeader_2 ?? null,
      overflow: { activate: false, noReplyDelay: body.noReplyDelay ?? 20, activateUnavailableOverflow: false },
      externalTrunkId: link.externalTrunkId,
      routeInternalCallsToPeer: link.routeInternalCallsToPeer,
      callForkingToPstnNumber: link.callForkingToPstnNumber,
    });
    return toApiCloudPbx(system, pbx);
  });
}

/**
 * A creation that failed after its tenant was made: the tenant goes. When the command runs in a
 * transaction of its caller's (an Idempotency-Key's, an import line's), the platform is asked once
 * that transaction has ended (on the embedded database, its one session is held until then).
 */
export async function undoTenant(
  voice: VoicePort,
  tenantId: string,
  log: FastifyBaseLogger,
  inCallersTransaction: boolean,
): Promise<void> {
  const undo = voice.deleteTenant(tenantId).catch((err: unknown) => {
    log.error({ err, tenantId }, 'pbx: the voice platform tenant of a failed CloudPBX creation could not be deleted');
  });
  if (!inCallersTransaction) await undo;
}

/**
 * Document 2, update CloudPBX: the settings given (an empty nested object changes nothing); the
 * link to an external trunk and the settings that need its features as checkTrunkLink says.
 */
export async function updateCloudPbx(db: Executor, caller: Caller, target: repo.CloudPbxRow, body: UpdateBody) {
  return db.transaction(async (tx) => {
    const current =
      (await repo.lockCloudPbx(tx, target.id)) ?? fail('NOT_FOUND', { target: 'cloudpbx', id: target.id });
    const numbering = numberingOf(body, { prefixes: current.numberingPrefixes, digits: current.numberingDigits });
    const link = await checkTrunkLink(tx, caller, current, linkRequestOf(body), { lock: true });
    const patch: Partial<repo.NewCloudPbx> = {};
    if (numbering.prefixes.join() !== current.numberingPrefixes.join()) patch.numberingPrefixes = numbering.prefixes;
    if (numbering.digits !== current.numberingDigits) patch.numberingDigits = numbering.digits;
    if (body.language !== undefined) patch.language = body.language;
    if (link.externalTrunkId !== current.externalTrunkId) patch.externalTrunkId = link.externalTrunkId;
    if (link.callForkingToPstnNumber !== current.callForkingToPstnNumber)
      patch.callForkingToPstnNumber = link.callForkingToPstnNumber;
    if (link.routeInternalCallsToPeer !== current.routeInternalCallsToPeer)
      patch.routeInternalCallsToPeer = link.routeInternalCallsToPeer;
    if (body.customSipHeader_1 !== undefined) patch.customSipHeader1 = body.customSipHeader_1;
    if (body.customSipHeader_2 !== undefined) patch.customSipHeader2 = body.customSipHeader_2;
    if (body.outgoingPrefix !== undefined) patch.outgoingPrefix = digitsOf(body.outgoingPrefix);
    if (body.monolineIncomingMode !== undefined) patch.monolineIncomingMode = body.monolineIncomingMode;
    if (body.barringOptions) patch.barringOptions = { ...current.barringOptions, ...body.barringOptions };
    if (body.callForwardOptions)
      patch.callForwardOptions = { ...current.callForwardOptions, ...body.callForwardOptions };
    if (body.emergencyOptions) patch.emergencyOptions = { ...current.emergencyOptions, ...body.emergencyOptions };
    const pbx = Object.keys(patch).length ? ((await repo.updateCloudPbxRow(tx, target.id, patch)) ?? current) : current;
    const system =
      body.name !== undefined ? await renameSystem(tx, target.id, body.name) : (await systemsByIds(tx, [target.id]))[0];
    if (!system) fail('NOT_FOUND', { target: 'cloudpbx', id: target.id });
    return toApiCloudPbx(system, pbx);
  });
}

/** How long a delete's claim holds before another delete may take it (an attempt that died on the way). */
const DELETION_CLAIM_MS = 60_000;

/**
 * Document 2, delete CloudPBX with forceDelete, on the voice platform: the device accounts of its
 * SIP devices and the subscribers of its tenant go before the tenant (the platform refuses to
 * delete a tenant that still holds them). Those already gone (a delete that failed midway) are
 * skipped, so that a second attempt completes.
 */
async function emptyOnPlatform(exec: Executor, voice: VoicePort, target: repo.CloudPbxRow): Promise<void> {
  for (const deviceId of await deviceIdsOf(exec, { cloudPbxId: target.id }))
    if (await voice.getDeviceAccount(deviceId)) await voice.deleteDeviceAccount(deviceId);
  for (const s of await voice.listSubscribers(target.vcpTenantId)) await voice.deleteSubscriber(s.id);
}

/**
 * Document 2, delete CloudPBX. Without forceDelete it is refused (409823) while DDI numbers,
 * subscribers or SIP devices exist; with it they go too: on the voice platform first (device
 * accounts, subscribers, then the tenant; a refusal: 502, nothing deleted here), then the settings
 * row (its DDI numbers, subscribers, SIP devices and keys follow by their foreign keys, freeing the
 * numbers and MAC addresses), the system row and its XMPP accounts in one transaction
 * (docs/decisions.md, CloudPBX). The delete claims the CloudPBX first, so that two deletes at once
 * delete it once (the second: 404).
 */
export async function deleteCloudPbx(
  db: Executor,
  accounts: XmppAccounts | undefined,
  voice: VoicePort,
  target: repo.CloudPbxRow,
  forceDelete: boolean,
  now: Date,
): Promise<void> {
  if (!forceDelete) {
    const attached = await subscribersRepo.attachedObjects(db, target.id);
    if (attached.ddis + attached.subscribers + attached.devices > 0)
      fail('PBX_CLOUDPBX_NOT_EMPTY', { ...attached, forceDelete: false });
  }
  // One delete at a time: a second one meanwhile finds nothing to delete (404).
  if (!(await repo.claimDeletion(db, target.id, now, new Date(now.getTime() - DELETION_CLAIM_MS))))
    fail('NOT_FOUND', { target: 'cloudpbx', id: target.id });
  try {
    if (forceDelete) await emptyOnPlatform(db, voice, target);
    await voice.deleteTenant(target.vcpTenantId);
  } catch (err) {
    await repo.releaseDeletion(db, target.id);
    if (err instanceof PortFailure) fail('PBX_VOICE_PLATFORM_FAILED', { operation: 'deleteTenant' });
    throw err;
  }
  await db.transaction(async (tx) => {
    const system = await lockSystemRow(tx, target.id);
    await repo.deleteCloudPbxRow(tx, target.id);
    if (system) await deleteSystemWithAccounts(tx, accounts, system);
  });
}
