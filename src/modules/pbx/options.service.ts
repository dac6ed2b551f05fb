// Rules of a CloudPBX's options and reference data (document 2; routes.md, CloudPBX; issue 25,
// point 2; decisions in docs/decisions.md, "CloudPBX: options and reference data").
import type { Static } from 'typebox';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { seal, unseal } from '../../shared/keys.ts';
import { systemsByIds } from '../systems/systems.api.ts';
import * as repo from './pbx.repo.ts';
import { toApiCloudPbx } from './pbx.service.ts';
import { LANGUAGES } from './pbx.schemas.ts';
import {
  BARRING_PERMISSIONS,
  BARRING_RESTRICTIONS,
  DEVICE_MODELS,
  emergencyNumbersOf,
  LANGUAGE_NAMES,
  type DeviceModelEntry,
} from './options.data.ts';
import type {
  CustomNumberPattern,
  UpdateCliOptionsBody,
  UpdateOverflowOptionsBody,
  UpdatePeerAuthenticationBody,
} from './options.schemas.ts';

/** Document 2, languages: `[{code, description}]`, the nine codes of `language`. */
export function listLanguages() {
  return LANGUAGES.map((code) => ({ code, description: LANGUAGE_NAMES[code] }));
}

/** Document 2, barring option lists. */
export function barringOptionLists() {
  return {
    permissions: BARRING_PERMISSIONS.map((o) => ({ ...o })),
    restrictions: BARRING_RESTRICTIONS.map((o) => ({ ...o })),
  };
}

export function customNumbersRestriction(pbx: repo.CloudPbxRow) {
  return { patterns: pbx.customNumbersRestriction };
}

/**
 * Document 2, update custom prohibited numbers: the complete new set replaces the old; each
 * pattern must be a regular expression (400801 naming the field and its index otherwise).
 * Compiling one runs nothing, so no pattern can make the check slow; length and count are bounded
 * by the body's schema.
 */
export async function updateCustomNumbersRestriction(
  db: Executor,
  target: repo.CloudPbxRow,
  patterns: CustomNumberPattern[],
) {
  patterns.forEach((p, index) => {
    try {
      new RegExp(p.pattern);
    } catch {
      fail('PBX_PATTERN_INVALID', { field: `patterns[${index}].pattern`, index, pattern: p.pattern });
    }
  });
  const stored = patterns.map((p) => ({ pattern: p.pattern, description: p.description }));
  if (!(await repo.updateCloudPbxRow(db, target.id, { customNumbersRestriction: stored })))
    fail('NOT_FOUND', { target: 'cloudpbx', id: target.id });
  return { status: `Custom numbers restriction of CloudPBX ${target.id} updated`, data: { patterns: stored } };
}

/** Document 2, CLI options: the policy, the installation number it presents, the two permissions. */
export function cliOptions(pbx: repo.CloudPbxRow) {
  return { ...pbx.cliOptions, numberE164: pbx.installationNumber };
}

/** The settings row locked for a change, and the CloudPBX it answers afterwards. */
async function changeSettings(
  db: Executor,
  target: repo.CloudPbxRow,
  patchOf: (current: repo.CloudPbxRow) => Partial<repo.NewCloudPbx>,
) {
  return db.transaction(async (tx) => {
    const current =
      (await repo.lockCloudPbx(tx, target.id)) ?? fail('NOT_FOUND', { target: 'cloudpbx', id: target.id });
    const patch = patchOf(current);
    const pbx = Object.keys(patch).length ? ((await repo.updateCloudPbxRow(tx, target.id, patch)) ?? current) : current;
    const [system] = await systemsByIds(tx, [target.id]);
    if (!system) fail('NOT_FOUND', { target: 'cloudpbx', id: target.id });
    return toApiCloudPbx(system, pbx);
  });
}

/** Document 2, update CLI options: the members given (absent: unchanged). */
export function updateCliOptions(db: Executor, target: repo.CloudPbxRow, body: Static<typeof UpdateCliOptionsBody>) {
  return changeSettings(db, target, (current) => ({ cliOptions: { ...current.cliOptions, ...body } }));
}

/**
 * Document 2, update overflow configuration: the members given (absent: unchanged), read back
 * under `cloudpbx.overflowSubscribersToVoicemail`.
 */
export function updateOverflowOptions(
  db: Executor,
  target: repo.CloudPbxRow,
  body: Static<typeof UpdateOverflowOptionsBody>,
) {
  return changeSettings(db, target, (current) => ({ overflow: { ...current.overflow, ...body } }));
}

/** Document 2, peer authentication: the password unsealed (an unset authentication: nulls). */
export function peerAuthentication(pbx: repo.CloudPbxRow, sealKey: Buffer) {
  const p = pbx.peerAuthenticationOptions;
  if (!p) return { username: null, password: null, realm: null };
  return { username: p.username, password: unseal(sealKey, p.passwordSealed), realm: p.realm };
}

/**
 * Document 2, update peer authentication: username and password, both required; the realm is the
 * service's SIP domain (SIP_DOMAIN). The password is kept sealed with the server's key.
 */
export async function updatePeerAuthentication(
  db: Executor,
  target: repo.CloudPbxRow,
  body: Static<typeof UpdatePeerAuthenticationBody>,
  sealKey: Buffer,
  realm: string,
) {
  const stored = { username: body.username, passwordSealed: seal(sealKey, body.password), realm };
  if (!(await repo.updateCloudPbxRow(db, target.id, { peerAuthenticationOptions: stored })))
    fail('NOT_FOUND', { target: 'cloudpbx', id: target.id });
  return {
    status: `Peer authentication of CloudPBX ${target.id} updated`,
    data: { username: body.username, password: body.password, realm },
  };
}

/** Document 2, emergency numbers: the CloudPBX's options, its outgoing prefix and its country's numbers. */
export async function emergencyNumbers(exec: Executor, pbx: repo.CloudPbxRow) {
  const [system] = await systemsByIds(exec, [pbx.id]);
  if (!system) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
  return {
    emergencyOptions: pbx.emergencyOptions,
    outgoingPrefix: pbx.outgoingPrefix,
    emergencyNumbers: emergencyNumbersOf(system.country).map((n) => ({ ...n })),
  };
}

/** Document 2, device model: its keys numbered from 1 (the generic SIP model has none). */
function toApiDeviceModel(m: DeviceModelEntry) {
  const keyTypes = [...(m.can_speeddial ? ['speeddial'] : []), ...(m.can_monitor ? ['monitor'] : [])];
  return {
    ...m,
    keys: Array.from({ length: m.programmableKeys }, (_, i) => ({ keyNum: i + 1, keyTypes: [...keyTypes] })),
  };
}

export function listDeviceModels() {
  return DEVICE_MODELS.map(toApiDeviceModel);
}

/** Document 2, get a device model: `{data: [Device model]}` (an array of one); an unknown id: 404. */
export function getDeviceModel(id: number) {
  const m = DEVICE_MODELS.find((d) => d.id === id) ?? fail('NOT_FOUND', { target: 'devicemodel', id });
  return [toApiDeviceModel(m)];
}
