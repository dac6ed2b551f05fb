// Rules of the call recordings of a CloudPBX (document 2, Recording and Recordings; issue 26,
// point 5 and its pinned contract details). The audio lives behind the files port under
// `pbx/<companyId>/<cloudPbxId>/recordings/<id>` (issue 26, point 8): written before the row
// commits, removed after the row is deleted, so a crash leaves at worst a file without a row
// (which the periodic sweep of stored audio removes), never a row without its audio.
import type { FastifyBaseLogger } from 'fastify';
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { Value } from 'typebox/value';
import { InputRefused, checkPart } from '../../http/input.ts';
import type { FilesPort } from '../../ports/files/files.port.ts';
import { companyRecordingRules } from '../admin/companies/companies.api.ts';
import { userNamesOf } from '../admin/users/users.api.ts';
import { systemsByIds } from '../systems/systems.api.ts';
import { emitPbxChange } from './pbx.events.ts';
import * as pbxRepo from './pbx.repo.ts';
import { inPlan } from './numbering.service.ts';
import { audioKey, type AudioInfo } from './audio.ts';
import { subscribers } from './subscribers.tables.ts';
import { groups } from './groups.tables.ts';
import * as repo from './recordings.repo.ts';
import { RecordingDescriptor, type RecordingDescriptorValue } from './recordings.schemas.ts';
import type { CloudPbxRow } from './pbx.repo.ts';

/** Document 2, recording rules: "recordings are kept two months then deleted". */
export const RETENTION_MONTHS = 2;
/** Document 2, recording rules: "a recording shorter than 3 seconds is deleted". */
export const MIN_DURATION_SECONDS = 3;
/** Rows deleted per statement by a retention run (each statement commits on its own). */
const RETENTION_BATCH = 500;

/** The file extension of a stored audio's media type (the answer's fileName). */
function extensionOf(mediaType: string): string {
  if (mediaType.includes('mpeg') || mediaType.includes('mp3')) return '.mp3';
  if (mediaType.includes('ogg')) return '.ogg';
  if (mediaType.includes('wav')) return '.wav';
  return '';
}

type RecordingFields = Omit<repo.RecordingView, 'storageKey'>;

/** Document 2, Recording; `duration` in whole seconds, `recordedParty.number` the subscriber's short number. */
export function toApiRecording(r: RecordingFields) {
  return {
    id: r.id,
    fileName: `recording-${r.id}${extensionOf(r.mediaType)}`,
    mime: r.mediaType,
    size: r.size,
    date: r.date,
    duration: Math.round(r.duration),
    direction: r.direction === 'out' ? ('out' as const) : ('in' as const),
    otherParty: { number: r.otherNumber },
    recordedParty: {
      userId: r.recordedUserId,
      groupId: r.recordedGroupId,
      phoneNumberId: r.recordedPhoneNumberId,
      name: r.recordedName,
      number: r.recordedNumber,
    },
  };
}

/** The storage key of a recording's audio (issue 26, point 8: per company and CloudPBX; audio.ts's layout). */
export const recordingKey = (companyId: string, cloudPbxId: string, id: string) =>
  audioKey(companyId, cloudPbxId, 'recordings', id);

/** The company of a CloudPBX (its system's). */
export async function companyOfPbx(exec: Executor, cloudPbxId: string): Promise<string> {
  const [system] = await systemsByIds(exec, [cloudPbxId]);
  if (!system?.companyId) fail('NOT_FOUND', { target: 'cloudpbx', id: cloudPbxId });
  return system.companyId;
}

// ---------------------------------------------------------------------------------------------
// Ingestion (issue 26, point 5).

/** The `descriptor` part, checked as a body would be; 400870 naming what is wrong. */
export function parseDescriptor(text: string | undefined): RecordingDescriptorValue {
  if (text === undefined) fail('RECORDING_DESCRIPTOR_INVALID', { field: 'descriptor', reason: 'missing' });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail('RECORDING_DESCRIPTOR_INVALID', { field: 'descriptor', reason: 'not JSON' });
  }
  try {
    checkPart(RecordingDescriptor, 'body', value);
  } catch (err) {
    if (!(err instanceof InputRefused)) throw err;
    const first = err.validation[0];
    fail('RECORDING_DESCRIPTOR_INVALID', {
      field: `descriptor${first?.instancePath ?? ''}`,
      reason: first?.message ?? 'invalid',
    });
  }
  // (checkPart coerced and pruned it in place; this check gives its type.)
  if (!Value.Check(RecordingDescriptor, value)) fail('RECORDING_DESCRIPTOR_INVALID', { field: 'descriptor' });
  return value;
}

/** What an ingestion stores beside the audio, once its rules passed. */
export interface AcceptedRecording {
  id: string;
  companyId: string;
  storageKey: string;
  descriptor: RecordingDescriptorValue;
  recordedUserId: string;
  recordedName: string;
  recordedNumber: string;
}

/**
 * Issue 26, point 5, ingestion: refused (409, before anything is stored) when the company does not
 * allow recording, when it records inbound calls only and the call is not inbound, or when the
 * recorded subscriber's recording profile excludes the call (`none`; `external_only` for a call
 * whose other party is an internal short number, one of the numbering plan; `internal_only` for
 * an external one). recordedParty must name a subscriber of this CloudPBX (its user, if given,
 * must be his; its group, if given, a group of this CloudPBX).
 */
export async function acceptRecording(
  exec: Executor,
  pbx: CloudPbxRow,
  descriptor: RecordingDescriptorValue,
  id: string,
): Promise<AcceptedRecording> {
  const companyId = await companyOfPbx(exec, pbx.id);
  const rules = await companyRecordingRules(exec, companyId);
  if (!rules?.allowCloudPbxRecording) fail('RECORDING_NOT_ALLOWED', { companyId });
  if (rules.cloudPbxRecordingInboundOnly && descriptor.direction !== 'in')
    fail('RECORDING_INBOUND_ONLY', { companyId, direction: descriptor.direction });

  const party = descriptor.recordedParty;
  const [subscriber] = await exec
    .select({
      userId: subscribers.userId,
      shortNumber: subscribers.shortNumber,
      recordingProfile: subscribers.recordingProfile,
      names: userNamesOf(subscribers.userId),
    })
    .from(subscribers)
    .where(and(eq(subscribers.id, party.phoneNumberId), eq(subscribers.cloudPbxId, pbx.id)));
  if (!subscriber) fail('RECORDING_PARTY_UNKNOWN', { field: 'recordedParty.phoneNumberId', id: party.phoneNumberId });
  if (party.userId !== undefined && party.userId !== subscriber.userId)
    fail('RECORDING_PARTY_UNKNOWN', { field: 'recordedParty.userId', id: party.userId });
  if (party.groupId !== undefined) {
    const [group] = await exec
      .select({ id: groups.id })
      .from(groups)
      .where(and(eq(groups.id, party.groupId), eq(groups.cloudPbxId, pbx.id)));
    if (!group) fail('RECORDING_PARTY_UNKNOWN', { field: 'recordedParty.groupId', id: party.groupId });
  }

  const internal = inPlan(pbx, descriptor.otherParty.number);
  const profile = subscriber.recordingProfile;
  if (profile === 'none' || (profile === 'external_only' && internal) || (profile === 'internal_only' && !internal))
    fail('RECORDING_PROFILE_EXCLUDES', {
      phoneNumberId: party.phoneNumberId,
      recordingProfile: profile,
      call: internal ? 'internal' : 'external',
    });

  return {
    id,
    companyId,
    storageKey: recordingKey(companyId, pbx.id, id),
    descriptor,
    recordedUserId: subscriber.userId,
    recordedName: subscriber.names?.displayName ?? '',
    recordedNumber: subscriber.shortNumber,
  };
}

/** Issue 26, point 5: the row of an accepted recording whose audio is stored; the recording's answer. */
export async function insertRecording(exec: Executor, pbx: CloudPbxRow, a: AcceptedRecording, audio: AudioInfo) {
  const d = a.descriptor;
  const row = await repo.insertRecording(exec, {
    id: a.id,
    cloudPbxId: pbx.id,
    date: new Date(d.date),
    direction: d.direction,
    otherNumber: d.otherParty.number,
    recordedUserId: a.recordedUserId,
    recordedGroupId: d.recordedParty.groupId ?? null,
    recordedPhoneNumberId: d.recordedParty.phoneNumberId,
    recordedName: a.recordedName,
    recordedNumber: a.recordedNumber,
    storageKey: a.storageKey,
    mediaType: audio.mediaType,
    size: audio.size,
    duration: audio.duration,
  });
  return toApiRecording(row);
}

// ---------------------------------------------------------------------------------------------
// Consultation and deletion.

/** Removes stored audio after its row is gone; a failure is logged (the sweep removes it later). */
export async function removeAudio(files: FilesPort, keys: string[], log?: FastifyBaseLogger): Promise<void> {
  for (const key of keys) {
    try {
      await files.delete(key);
    } catch (err) {
      log?.warn({ err, key }, 'recording audio not removed: the sweep of stored audio will');
    }
  }
}

/** Document 2: "DELETE C/recordings/{recordId} deletes descriptor and audio". */
export async function deleteRecording(
  db: Executor,
  files: FilesPort,
  pbx: CloudPbxRow,
  id: string,
  log?: FastifyBaseLogger,
): Promise<void> {
  const key = await repo.deleteRecordingRow(db, pbx.id, id);
  if (key === undefined) fail('NOT_FOUND', { target: 'recording', id });
  await removeAudio(files, [key], log);
}

/** The ids of `recordIds` (comma-separated, blanks and repeats ignored). */
export function parseRecordIds(recordIds: string): string[] {
  const ids = [...new Set(recordIds.split(',').map((s) => s.trim()))].filter((s) => s !== '');
  if (ids.length === 0) fail('RECORDING_IDS_REQUIRED', { field: 'recordIds' });
  return ids;
}

/**
 * Document 2, delete several recordings; issue 26, point 5: all or nothing. When one of the ids
 * is not a recording of this CloudPBX, the transaction rolls back and the answer is 404 naming them.
 */
export async function deleteRecordings(
  db: Executor,
  files: FilesPort,
  pbx: CloudPbxRow,
  recordIds: string,
  log?: FastifyBaseLogger,
): Promise<number> {
  const ids = parseRecordIds(recordIds);
  const deleted = await db.transaction(async (tx) => {
    const rows = await repo.deleteRecordingRows(tx, pbx.id, ids);
    if (rows.length !== ids.length) {
      const found = new Set(rows.map((r) => r.id));
      fail('RECORDINGS_NOT_FOUND', { recordIds: ids.filter((i) => !found.has(i)) });
    }
    return rows;
  });
  await removeAudio(
    files,
    deleted.map((r) => r.storageKey),
    log,
  );
  return deleted.length;
}

/** Document 2, set recording announcement profile; the CloudPBX's gateway is told through the outbox. */
export async function setAnnouncementProfile<P extends string>(db: Executor, pbx: CloudPbxRow, announcementProfile: P) {
  await db.transaction(async (tx) => {
    await pbxRepo.updateCloudPbxRow(tx, pbx.id, { announcementProfile });
    await emitPbxChange(tx, pbx.id, 'cloudpbx', 'update', { id: pbx.id, announcementProfile });
  });
  return { announcementProfile };
}

// ---------------------------------------------------------------------------------------------
// Retention (issue 26, point 5; document 2, recording rules).

/** The instant before which a recording dated at `now` minus two calendar months has expired. */
export function expiryOf(now: Date): Date {
  const d = new Date(now.getTime());
  d.setUTCMonth(d.getUTCMonth() - RETENTION_MONTHS);
  return d;
}

export interface RetentionDeps {
  db: Executor;
  files: FilesPort;
  now: () => Date;
  log?: FastifyBaseLogger;
}

/**
 * Document 2, recording rules: a recording is kept two months from its date, one shorter than 3
 * seconds is deleted; its row goes first, then its audio. Answers {checked, deletedExpired,
 * deletedShort} (a recording both old and short counts as expired). Two runs at once delete each
 * recording once (SKIP LOCKED, and a deleted row comes back to one of them only).
 */
export async function runRetention(d: RetentionDeps) {
  const expiredBefore = expiryOf(d.now());
  const checked = await repo.countRecordings(d.db);
  let deletedExpired = 0;
  let deletedShort = 0;
  for (;;) {
    const batch = await repo.deleteRetainedBatch(d.db, expiredBefore, MIN_DURATION_SECONDS, RETENTION_BATCH);
    for (const r of batch) if (r.expired) deletedExpired++;
    deletedShort += batch.filter((r) => !r.expired).length;
    await removeAudio(
      d.files,
      batch.map((r) => r.storageKey),
      d.log,
    );
    if (batch.length < RETENTION_BATCH) break;
  }
  return { checked, deletedExpired, deletedShort };
}
