// Greetings of a CloudPBX (document 2, Greeting, Greetings and the greeting transitions; issue 26,
// points 3, 4 and 8). A scope (the company announcements, a hunting group, a welcome service, an
// auto attendant's menu, the console attendant) has its fixed greetingIds; each greetingId plays
// its active stored file, or, with none active, the service's default file in the CloudPBX's
// language. Stored files live behind the files port (audio.ts): written before their row commits
// and removed after their row is deleted (a crash leaves at worst a file without a row, which the
// sweep removes, never a row without its file).
import { PassThrough, type Readable } from 'node:stream';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { newId } from '../../shared/ids.ts';
import type { Upload } from '../../http/media.ts';
import type { BinaryAnswer } from '../../http/binary.ts';
import type { FilesPort } from '../../ports/files/files.port.ts';
import { systemsByIds } from '../systems/systems.api.ts';
import { audioKey, storeAudio, type AudioInfo } from './audio.ts';
import { emitPbxChange } from './pbx.events.ts';
import { lockCloudPbx } from './pbx.repo.ts';
import { LANGUAGES, type Language } from './pbx.schemas.ts';
import * as repo from './greetings.repo.ts';
import { SCOPE_GREETINGS, type GreetingScope, type GroupGreetingType } from './greetings.schemas.ts';

export interface ApiGreeting {
  greetingId: string;
  fileId: string;
  fileName: string;
  description: string;
  size: number;
  duration: number;
  isDefault: boolean;
  isActive: boolean;
}

/** What the scope selectors of the query name. */
export interface ScopeSelectors {
  groupId?: string;
  ivrId?: string;
  autoAttendantMenuId?: string;
  attendant?: boolean;
}

export interface Scope extends repo.ScopeKey {
  scope: GreetingScope;
  /** The selector as the list answers it ({groupId}, {ivrId}, {attendant: true}; {} for the company). */
  selector: ScopeSelectors;
}

const DESCRIPTIONS: Record<string, string> = {
  music_on_hold: 'music on hold',
  officehours: 'announcement in office hours',
  afterhours: 'announcement after office hours',
  menu_key_action_0: 'menu announcement (key actions)',
  hg_unavailable: 'hunting group unavailable',
  attendant_on_hold: 'console attendant on hold',
};

// --- Default files (docs/decisions.md, Greetings: the default files).

/**
 * The service's default audio: one second of silence, 8 kHz µ-law WAV (the codec of the voice
 * platform), the same bytes for every greetingId and language. The real prompts are the voice
 * platform's; the service answers a valid, playable file for each, with its size and duration.
 */
export const DEFAULT_AUDIO: Buffer = (() => {
  const rate = 8000;
  const data = Buffer.alloc(rate, 0xff); // µ-law silence
  const h = Buffer.alloc(58);
  h.write('RIFF', 0);
  h.writeUInt32LE(50 + data.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(18, 16);
  h.writeUInt16LE(7, 20); // WAVE_FORMAT_MULAW
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate, 28);
  h.writeUInt16LE(1, 32);
  h.writeUInt16LE(8, 34);
  h.writeUInt16LE(0, 36);
  h.write('data', 38);
  h.writeUInt32LE(data.length, 42);
  return Buffer.concat([h.subarray(0, 46), data]);
})();
const DEFAULT_DURATION = 1;

const defaultFileId = (greetingId: string, language: Language) => `default_${greetingId}_${language}`;

/** `default_officehours_fr` -> {greetingId, language}; undefined for another id. */
function parseDefaultId(fileId: string): { greetingId: string; language: Language } | undefined {
  const m = /^default_([a-z0-9_]+)_([a-z]{2})$/.exec(fileId);
  if (!m) return undefined;
  const language = LANGUAGES.find((l) => l === m[2]);
  return language ? { greetingId: m[1], language } : undefined;
}

function defaultGreeting(greetingId: string, language: Language, isActive: boolean): ApiGreeting {
  return {
    greetingId,
    fileId: defaultFileId(greetingId, language),
    fileName: `${greetingId}_${language}.wav`,
    description: `${DESCRIPTIONS[greetingId] ?? greetingId} (default, ${language})`,
    size: DEFAULT_AUDIO.length,
    duration: DEFAULT_DURATION,
    isDefault: true,
    isActive,
  };
}

function storedGreeting(r: repo.GreetingFileRow): ApiGreeting {
  return {
    greetingId: r.greetingId,
    fileId: r.id,
    fileName: r.fileName,
    description: DESCRIPTIONS[r.greetingId] ?? r.greetingId,
    size: r.size,
    duration: r.duration,
    isDefault: false,
    isActive: r.isActive,
  };
}

// --- Scopes (issue 26, point 3).

/**
 * The scope the query names: none is the company announcements; at most one selector (400
 * naming them otherwise); a groupId must be a hunting group of this CloudPBX, an ivrId or an
 * autoAttendantMenuId a welcome service of it (400 naming the field otherwise).
 */
export async function resolveScope(exec: Executor, cloudPbxId: string, q: ScopeSelectors): Promise<Scope> {
  const named = (['groupId', 'ivrId', 'autoAttendantMenuId'] as const).filter((k) => q[k] !== undefined);
  const fields = [...named, ...(q.attendant === true ? ['attendant'] : [])];
  if (fields.length > 1) fail('GREETING_SCOPE_AMBIGUOUS', { fields });
  const base = { cloudPbxId };
  if (q.groupId !== undefined) {
    const g = await repo.groupOf(exec, cloudPbxId, q.groupId);
    if (g?.type !== 'hunting_group') fail('GREETING_SCOPE_UNKNOWN', { field: 'groupId', value: q.groupId });
    return { ...base, scope: 'group', scopeId: g.id, selector: { groupId: g.id } };
  }
  if (q.ivrId !== undefined) {
    if (!(await repo.welcomeServiceOf(exec, cloudPbxId, q.ivrId)))
      fail('GREETING_SCOPE_UNKNOWN', { field: 'ivrId', value: q.ivrId });
    return { ...base, scope: 'ivr', scopeId: q.ivrId, selector: { ivrId: q.ivrId } };
  }
  if (q.autoAttendantMenuId !== undefined) {
    if (!(await repo.welcomeServiceOf(exec, cloudPbxId, q.autoAttendantMenuId)))
      fail('GREETING_SCOPE_UNKNOWN', { field: 'autoAttendantMenuId', value: q.autoAttendantMenuId });
    return {
      ...base,
      scope: 'autoattendantmenu',
      scopeId: q.autoAttendantMenuId,
      selector: { autoAttendantMenuId: q.autoAttendantMenuId },
    };
  }
  if (q.attendant === true) return { ...base, scope: 'attendant', scopeId: '', selector: { attendant: true } };
  return { ...base, scope: 'company', scopeId: '', selector: {} };
}

const greetingIdsOf = (scope: Scope): readonly string[] => SCOPE_GREETINGS[scope.scope];

/** Issue 26, point 3: another greetingId than the scope's is 400. */
function checkGreetingId(scope: Scope, greetingId: string): void {
  const allowed = greetingIdsOf(scope);
  if (!allowed.includes(greetingId)) fail('GREETING_ID_NOT_IN_SCOPE', { greetingId, scope: scope.scope, allowed });
}

// --- Reads.

export async function listGreetings(
  exec: Executor,
  pbx: { id: string; language: Language },
  q: ScopeSelectors,
): Promise<ScopeSelectors & { greetings: ApiGreeting[] }> {
  const scope = await resolveScope(exec, pbx.id, q);
  const rows = await repo.scopeFiles(exec, scope);
  const greetings: ApiGreeting[] = [];
  for (const greetingId of greetingIdsOf(scope)) {
    const stored = rows.filter((r) => r.greetingId === greetingId);
    greetings.push(defaultGreeting(greetingId, pbx.language, !stored.some((r) => r.isActive)));
    greetings.push(...stored.map(storedGreeting));
  }
  return { ...scope.selector, greetings };
}

/**
 * A file by its id: a stored file of this CloudPBX (whatever the query), or a default file
 * `default_<greetingId>_<language>` of the scope the query names (404 when the greetingId is not
 * the scope's); isActive for a default: the CloudPBX's language and no stored file active.
 */
export async function getGreeting(
  exec: Executor,
  pbx: { id: string; language: Language },
  fileId: string,
  q: ScopeSelectors,
): Promise<ApiGreeting> {
  const found = await findFile(exec, pbx, fileId, q);
  return found.kind === 'stored' ? storedGreeting(found.row) : found.greeting;
}

type Found =
  | { kind: 'stored'; row: repo.GreetingFileRow }
  | { kind: 'default'; greeting: ApiGreeting; scope: Scope; language: Language };

async function findFile(
  exec: Executor,
  pbx: { id: string; language: Language },
  fileId: string,
  q: ScopeSelectors,
): Promise<Found> {
  const def = parseDefaultId(fileId);
  if (def) {
    const scope = await resolveScope(exec, pbx.id, q);
    if (!greetingIdsOf(scope).includes(def.greetingId)) fail('NOT_FOUND', { target: 'greeting', id: fileId });
    const active = def.language === pbx.language && !(await repo.activeFile(exec, scope, def.greetingId));
    return {
      kind: 'default',
      greeting: defaultGreeting(def.greetingId, def.language, active),
      scope,
      language: def.language,
    };
  }
  const row = await repo.fileOf(exec, pbx.id, fileId);
  if (!row) fail('NOT_FOUND', { target: 'greeting', id: fileId });
  return { kind: 'stored', row };
}

/** A stored file as a binary answer that streams it (ranges read only their bytes). */
export function streamedAudio(
  files: FilesPort,
  a: { storageKey: string; mediaType: string; size: number },
  fileName: string,
): BinaryAnswer {
  return {
    mediaType: a.mediaType,
    fileName,
    body: {
      size: a.size,
      open: (start, end): Readable => {
        const out = new PassThrough();
        files.openRead(a.storageKey, { start, end }).then(
          (opened) => {
            if (!opened) return void out.destroy(new Error(`audio ${a.storageKey} is missing`));
            opened.stream.on('error', (err) => out.destroy(err)).pipe(out);
          },
          (err: Error) => out.destroy(err),
        );
        return out;
      },
    },
  };
}

/** Issue 26, point 3: the audio, streamed, with its type and length; ranges answered 206 (binary.ts). */
export async function greetingAudio(
  exec: Executor,
  files: FilesPort,
  pbx: { id: string; language: Language },
  fileId: string,
  q: ScopeSelectors,
): Promise<BinaryAnswer> {
  const found = await findFile(exec, pbx, fileId, q);
  if (found.kind === 'default')
    return { mediaType: 'audio/wav', fileName: found.greeting.fileName, body: DEFAULT_AUDIO };
  return streamedAudio(files, found.row, found.row.fileName);
}

// --- Changes.

async function companyOf(exec: Executor, cloudPbxId: string): Promise<string> {
  const [system] = await systemsByIds(exec, [cloudPbxId]);
  if (!system) fail('NOT_FOUND', { target: 'cloudpbx', id: cloudPbxId });
  return system.companyId;
}

async function tell(exec: Executor, action: 'create' | 'update' | 'delete', scope: repo.ScopeKey, g: ApiGreeting) {
  await emitPbxChange(exec, scope.cloudPbxId, 'greeting', action, {
    scope: scope.scope,
    scopeId: scope.scopeId,
    greetingId: g.greetingId,
    fileId: g.fileId,
    isDefault: g.isDefault,
    isActive: g.isActive,
  });
}

/** What uploadGreeting's prepare leaves for its command: the audio stored, not yet a row. */
export interface StoredUpload {
  scope: Scope;
  greetingId: string;
  fileId: string;
  storageKey: string;
  audio: AudioInfo;
}

/**
 * Issue 26, points 3 and 8: the scope and greetingId are checked before a byte is read; the
 * audio is then streamed to storage and judged (nothing stays stored on a refusal).
 */
export async function storeGreetingUpload(
  exec: Executor,
  files: FilesPort,
  pbxId: string,
  greetingId: string,
  q: ScopeSelectors,
  upload: Upload | undefined,
): Promise<StoredUpload> {
  const scope = await resolveScope(exec, pbxId, q);
  checkGreetingId(scope, greetingId);
  if (!upload) fail('AUDIO_EMPTY');
  const fileId = newId();
  const storageKey = audioKey(await companyOf(exec, pbxId), pbxId, 'greetings', fileId);
  const audio = await storeAudio(files, storageKey, upload);
  return { scope, greetingId, fileId, storageKey, audio };
}

/**
 * Document 2, Greeting transitions (upload): the new file is active and not default; the one it
 * replaces stays stored, inactive. The row commits after its audio was written; if it cannot,
 * the audio goes.
 */
export async function commitGreetingUpload(
  db: Executor,
  files: FilesPort,
  s: StoredUpload,
  fileName: string | undefined,
): Promise<ApiGreeting> {
  try {
    return await db.transaction(async (tx) => {
      if (!(await lockCloudPbx(tx, s.scope.cloudPbxId)))
        fail('NOT_FOUND', { target: 'cloudpbx', id: s.scope.cloudPbxId });
      await repo.deactivate(tx, s.scope, s.greetingId);
      const ext = s.audio.mediaType === 'audio/mpeg' ? 'mp3' : 'wav';
      const row = await repo.insertFile(tx, {
        id: s.fileId,
        cloudPbxId: s.scope.cloudPbxId,
        scope: s.scope.scope,
        scopeId: s.scope.scopeId,
        greetingId: s.greetingId,
        fileName: fileName ?? `${s.greetingId}.${ext}`,
        isActive: true,
        storageKey: s.storageKey,
        ...s.audio,
      });
      const g = storedGreeting(row);
      await tell(tx, 'create', s.scope, g);
      return g;
    });
  } catch (err) {
    await files.delete(s.storageKey).catch(() => undefined);
    throw err;
  }
}

/**
 * Activates a file: a stored one of its own scope (whatever the query), or the default of the
 * scope the query names (the same as restoring it; a default of another language than the
 * CloudPBX's cannot play: 409).
 */
export async function activateGreeting(
  db: Executor,
  pbx: { id: string; language: Language },
  fileId: string,
  q: ScopeSelectors,
): Promise<ApiGreeting> {
  const found = await findFile(db, pbx, fileId, q);
  if (found.kind === 'default') {
    if (found.language !== pbx.language)
      fail('GREETING_DEFAULT_OTHER_LANGUAGE', { fileId, language: found.language, cloudPbxLanguage: pbx.language });
    return restoreGreeting(db, pbx, found.greeting.greetingId, q);
  }
  return db.transaction(async (tx) => {
    if (!(await lockCloudPbx(tx, pbx.id))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
    const row = await repo.fileOf(tx, pbx.id, fileId);
    if (!row) fail('NOT_FOUND', { target: 'greeting', id: fileId });
    if (row.isActive) return storedGreeting(row);
    const scope = { cloudPbxId: row.cloudPbxId, scope: row.scope, scopeId: row.scopeId };
    await repo.deactivate(tx, scope, row.greetingId);
    const g = storedGreeting(await repo.setActive(tx, row.id));
    await tell(tx, 'update', scope, g);
    return g;
  });
}

/** Document 2, Greeting transitions (restore): the default of the CloudPBX's language becomes active. */
export async function restoreGreeting(
  db: Executor,
  pbx: { id: string; language: Language },
  greetingId: string,
  q: ScopeSelectors,
): Promise<ApiGreeting> {
  const scope = await resolveScope(db, pbx.id, q);
  checkGreetingId(scope, greetingId);
  return db.transaction(async (tx) => {
    const locked = await lockCloudPbx(tx, pbx.id);
    if (!locked) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
    await repo.deactivate(tx, scope, greetingId);
    const g = defaultGreeting(greetingId, locked.language, true);
    await tell(tx, 'update', scope, g);
    return g;
  });
}

/** Issue 26, point 3: only a stored, non-active, non-default file is deleted (409 otherwise); its audio after its row. */
export async function deleteGreeting(
  db: Executor,
  files: FilesPort,
  pbx: { id: string; language: Language },
  fileId: string,
  q: ScopeSelectors,
): Promise<void> {
  const found = await findFile(db, pbx, fileId, q);
  if (found.kind === 'default') fail('GREETING_NOT_DELETABLE', { fileId, reason: 'a default file' });
  const key = await db.transaction(async (tx) => {
    if (!(await lockCloudPbx(tx, pbx.id))) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
    const row = await repo.fileOf(tx, pbx.id, fileId);
    if (!row) fail('NOT_FOUND', { target: 'greeting', id: fileId });
    if (row.isActive) fail('GREETING_NOT_DELETABLE', { fileId, reason: 'the active file' });
    await repo.deleteFile(tx, row.id);
    await tell(tx, 'delete', row, storedGreeting(row));
    return row.storageKey;
  });
  // After the commit: a crash here leaves a file without a row, which the sweep removes.
  await files.delete(key).catch(() => undefined);
}

/** Document 2, DELETE C/greetings: every greeting of the scope back to its default, the scope's stored files deleted. */
export async function resetGreetings(
  db: Executor,
  files: FilesPort,
  pbx: { id: string },
  q: ScopeSelectors,
): Promise<number> {
  const scope = await resolveScope(db, pbx.id, q);
  const keys = await db.transaction(async (tx) => {
    const locked = await lockCloudPbx(tx, pbx.id);
    if (!locked) fail('NOT_FOUND', { target: 'cloudpbx', id: pbx.id });
    const deleted = await repo.deleteScopeFiles(tx, scope);
    for (const greetingId of greetingIdsOf(scope))
      await tell(tx, 'update', scope, defaultGreeting(greetingId, locked.language, true));
    return deleted;
  });
  for (const key of keys) await files.delete(key).catch(() => undefined);
  return keys.length;
}

// --- Group voicemail greetings (issue 26, point 4).

/** Only a hunting group has voicemail greetings (409 for a manager-assistant group). */
function checkHunting(group: { id: string; type: string }): void {
  if (group.type !== 'hunting_group') fail('GROUP_GREETING_NOT_HUNTING', { groupId: group.id, type: group.type });
}

export async function listGroupGreetings(
  exec: Executor,
  group: { id: string; type: string },
): Promise<{ id: string; type: GroupGreetingType }[]> {
  checkHunting(group);
  return (await repo.groupGreetingsOf(exec, group.id)).map(apiGroupGreeting);
}

function apiGroupGreeting(r: repo.GroupGreetingRow): { id: string; type: GroupGreetingType } {
  return { id: r.id, type: r.type === 'busy' ? 'busy' : 'unavailable' };
}

async function groupGreetingOf(exec: Executor, groupId: string, id: string): Promise<repo.GroupGreetingRow> {
  const r = await repo.groupGreetingOf(exec, groupId, id);
  if (!r) fail('NOT_FOUND', { target: 'groupGreeting', id });
  return r;
}

/** The audio of a group greeting being created or replaced, stored and judged; not yet its row. */
export async function storeGroupGreetingUpload(
  exec: Executor,
  files: FilesPort,
  group: { id: string; type: string; cloudPbxId: string },
  check: () => Promise<void>,
  upload: Upload | undefined,
): Promise<{ storageKey: string; audio: AudioInfo; id: string }> {
  checkHunting(group);
  await check();
  if (!upload) fail('AUDIO_EMPTY');
  const id = newId();
  const storageKey = audioKey(await companyOf(exec, group.cloudPbxId), group.cloudPbxId, 'group-greetings', id);
  return { storageKey, id, audio: await storeAudio(files, storageKey, upload) };
}

/** A second greeting of a type the group has is 409; checked before the upload is read, and again at the insert. */
export async function checkNoGroupGreeting(exec: Executor, groupId: string, type: GroupGreetingType): Promise<void> {
  if ((await repo.groupGreetingsOf(exec, groupId)).some((r) => r.type === type))
    fail('GROUP_GREETING_EXISTS', { groupId, type });
}

/** The greeting whose audio is replaced exists (404 otherwise), checked before the upload is read. */
export async function checkGroupGreetingExists(exec: Executor, groupId: string, id: string): Promise<void> {
  await groupGreetingOf(exec, groupId, id);
}

export async function createGroupGreeting(
  db: Executor,
  files: FilesPort,
  group: { id: string; cloudPbxId: string },
  type: GroupGreetingType,
  stored: { storageKey: string; audio: AudioInfo; id: string },
): Promise<{ id: string; type: GroupGreetingType }> {
  try {
    return await db.transaction(async (tx) => {
      const row = await repo.insertGroupGreeting(tx, {
        id: stored.id,
        groupId: group.id,
        type,
        storageKey: stored.storageKey,
        ...stored.audio,
      });
      if (!row) fail('GROUP_GREETING_EXISTS', { groupId: group.id, type });
      await emitPbxChange(tx, group.cloudPbxId, 'greeting', 'create', {
        groupId: group.id,
        groupGreetingId: row.id,
        type,
      });
      return apiGroupGreeting(row);
    });
  } catch (err) {
    await files.delete(stored.storageKey).catch(() => undefined);
    throw err;
  }
}

/** Replaces the audio: the new file is written, the row updated, then the old file removed. */
export async function replaceGroupGreetingAudio(
  db: Executor,
  files: FilesPort,
  group: { id: string; cloudPbxId: string },
  greetingId: string,
  stored: { storageKey: string; audio: AudioInfo },
): Promise<void> {
  let old: string;
  try {
    old = await db.transaction(async (tx) => {
      const row = await groupGreetingOf(tx, group.id, greetingId);
      await repo.updateGroupGreetingAudio(tx, row.id, { storageKey: stored.storageKey, ...stored.audio });
      await emitPbxChange(tx, group.cloudPbxId, 'greeting', 'update', {
        groupId: group.id,
        groupGreetingId: row.id,
        type: row.type,
      });
      return row.storageKey;
    });
  } catch (err) {
    await files.delete(stored.storageKey).catch(() => undefined);
    throw err;
  }
  await files.delete(old).catch(() => undefined);
}

export async function deleteGroupGreeting(
  db: Executor,
  files: FilesPort,
  group: { id: string; type: string; cloudPbxId: string },
  greetingId: string,
): Promise<void> {
  checkHunting(group);
  const key = await db.transaction(async (tx) => {
    const row = await groupGreetingOf(tx, group.id, greetingId);
    await repo.deleteGroupGreeting(tx, row.id);
    await emitPbxChange(tx, group.cloudPbxId, 'greeting', 'delete', {
      groupId: group.id,
      groupGreetingId: row.id,
      type: row.type,
    });
    return row.storageKey;
  });
  await files.delete(key).catch(() => undefined);
}

export async function groupGreetingAudio(
  exec: Executor,
  files: FilesPort,
  group: { id: string; type: string },
  greetingId: string,
): Promise<BinaryAnswer> {
  checkHunting(group);
  const row = await groupGreetingOf(exec, group.id, greetingId);
  return streamedAudio(files, row, `${row.type}.${row.mediaType === 'audio/mpeg' ? 'mp3' : 'wav'}`);
}

// --- The sweep (issue 26, point 8).

/** Files younger than this are left alone: their row may be about to commit (an upload in flight). */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

/**
 * Removes the greeting audio no row names (a crash between the write and the commit, or after a
 * row's delete), and the stored files of scopes whose group or welcome service is gone. Answers
 * what it removed.
 */
export async function sweepGreetingFiles(
  db: Executor,
  files: FilesPort,
  now: Date,
): Promise<{ checked: number; removedFiles: number; removedRows: number }> {
  const before = new Date(now.getTime() - SWEEP_GRACE_MS);
  const goneRows = await repo.deleteFilesOfGoneScopes(db, before);
  for (const key of goneRows) await files.delete(key).catch(() => undefined);
  const keys = (await files.list('pbx/')).filter((k) => /\/(greetings|group-greetings)\/[^/]+$/.test(k));
  let removedFiles = 0;
  for (let i = 0; i < keys.length; i += 500) {
    const batch = keys.slice(i, i + 500);
    const named = await repo.keysWithRows(db, batch);
    for (const key of batch) {
      if (named.has(key)) continue;
      const info = await files.stat(key);
      if (!info || info.modifiedAt > before) continue;
      // Checked again just before the removal: a row may have committed since the batch was read.
      if ((await repo.keysWithRows(db, [key])).size > 0) continue;
      if (await files.delete(key)) removedFiles++;
    }
  }
  return { checked: keys.length, removedFiles, removedRows: goneRows.length };
}
