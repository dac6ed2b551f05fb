// SQL of the greetings of a CloudPBX and of its hunting groups' voicemail greetings (issue 26,
// points 3, 4 and 8).
import { and, asc, eq, inArray, lt, notExists, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { greetingFiles, groupGreetings } from './greetings.tables.ts';
import { groups } from './groups.tables.ts';
import { ivrs } from './ivrs.tables.ts';

export type GreetingFileRow = typeof greetingFiles.$inferSelect;
export type GroupGreetingRow = typeof groupGreetings.$inferSelect;

export interface ScopeKey {
  cloudPbxId: string;
  scope: string;
  scopeId: string;
}

const inScope = (k: ScopeKey) =>
  and(
    eq(greetingFiles.cloudPbxId, k.cloudPbxId),
    eq(greetingFiles.scope, k.scope),
    eq(greetingFiles.scopeId, k.scopeId),
  );

/** The stored files of a scope, oldest first. */
export function scopeFiles(exec: Executor, k: ScopeKey): Promise<GreetingFileRow[]> {
  return exec
    .select()
    .from(greetingFiles)
    .where(inScope(k))
    .orderBy(asc(greetingFiles.creationDate), asc(greetingFiles.id));
}

export async function fileOf(exec: Executor, cloudPbxId: string, fileId: string): Promise<GreetingFileRow | undefined> {
  const [r] = await exec
    .select()
    .from(greetingFiles)
    .where(and(eq(greetingFiles.cloudPbxId, cloudPbxId), eq(greetingFiles.id, fileId)));
  return r;
}

/** The active stored file of a greetingId in a scope (none: its default plays). */
export async function activeFile(
  exec: Executor,
  k: ScopeKey,
  greetingId: string,
): Promise<GreetingFileRow | undefined> {
  const [r] = await exec
    .select()
    .from(greetingFiles)
    .where(and(inScope(k), eq(greetingFiles.greetingId, greetingId), eq(greetingFiles.isActive, true)));
  return r;
}

/** No stored file of the greetingId is active any more (its default then plays). */
export async function deactivate(exec: Executor, k: ScopeKey, greetingId: string): Promise<void> {
  await exec
    .update(greetingFiles)
    .set({ isActive: false })
    .where(and(inScope(k), eq(greetingFiles.greetingId, greetingId), eq(greetingFiles.isActive, true)));
}

export async function insertFile(exec: Executor, row: typeof greetingFiles.$inferInsert): Promise<GreetingFileRow> {
  const [r] = await exec.insert(greetingFiles).values(row).returning();
  return r;
}

export async function setActive(exec: Executor, id: string): Promise<GreetingFileRow> {
  const [r] = await exec.update(greetingFiles).set({ isActive: true }).where(eq(greetingFiles.id, id)).returning();
  return r;
}

export async function deleteFile(exec: Executor, id: string): Promise<void> {
  await exec.delete(greetingFiles).where(eq(greetingFiles.id, id));
}

/** Deletes every stored file of a scope; answers their storage keys. */
export async function deleteScopeFiles(exec: Executor, k: ScopeKey): Promise<string[]> {
  const rows = await exec.delete(greetingFiles).where(inScope(k)).returning({ key: greetingFiles.storageKey });
  return rows.map((r) => r.key);
}

/** A group of the CloudPBX: its type (a greeting scope is a hunting group only). */
export async function groupOf(
  exec: Executor,
  cloudPbxId: string,
  groupId: string,
): Promise<{ id: string; type: string } | undefined> {
  const [r] = await exec
    .select({ id: groups.id, type: groups.type })
    .from(groups)
    .where(and(eq(groups.cloudPbxId, cloudPbxId), eq(groups.id, groupId)));
  return r;
}

/** A welcome service of the CloudPBX. */
export async function welcomeServiceOf(exec: Executor, cloudPbxId: string, ivrId: string): Promise<boolean> {
  const [r] = await exec
    .select({ id: ivrs.id })
    .from(ivrs)
    .where(and(eq(ivrs.cloudPbxId, cloudPbxId), eq(ivrs.id, ivrId), eq(ivrs.kind, 'welcomeservice')));
  return r !== undefined;
}

// --- Group voicemail greetings (issue 26, point 4).

export function groupGreetingsOf(exec: Executor, groupId: string): Promise<GroupGreetingRow[]> {
  return exec
    .select()
    .from(groupGreetings)
    .where(eq(groupGreetings.groupId, groupId))
    .orderBy(asc(groupGreetings.type));
}

export async function groupGreetingOf(
  exec: Executor,
  groupId: string,
  id: string,
): Promise<GroupGreetingRow | undefined> {
  const [r] = await exec
    .select()
    .from(groupGreetings)
    .where(and(eq(groupGreetings.groupId, groupId), eq(groupGreetings.id, id)));
  return r;
}

/** Inserts the group's greeting of a type; undefined when the group has one of that type already. */
export async function insertGroupGreeting(
  exec: Executor,
  row: typeof groupGreetings.$inferInsert,
): Promise<GroupGreetingRow | undefined> {
  const [r] = await exec.insert(groupGreetings).values(row).onConflictDoNothing().returning();
  return r;
}

export async function updateGroupGreetingAudio(
  exec: Executor,
  id: string,
  audio: Pick<GroupGreetingRow, 'storageKey' | 'mediaType' | 'size' | 'duration'>,
): Promise<void> {
  await exec.update(groupGreetings).set(audio).where(eq(groupGreetings.id, id));
}

export async function deleteGroupGreeting(exec: Executor, id: string): Promise<void> {
  await exec.delete(groupGreetings).where(eq(groupGreetings.id, id));
}

// --- The sweep (issue 26, point 8).

/** Of these storage keys, those a row names (greeting files or group greetings). */
export async function keysWithRows(exec: Executor, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const a = await exec
    .select({ key: greetingFiles.storageKey })
    .from(greetingFiles)
    .where(inArray(greetingFiles.storageKey, keys));
  const b = await exec
    .select({ key: groupGreetings.storageKey })
    .from(groupGreetings)
    .where(inArray(groupGreetings.storageKey, keys));
  return new Set([...a, ...b].map((r) => r.key));
}

/**
 * Deletes the stored files of group, welcome service and menu scopes whose group or welcome
 * service is gone (the scope id is not a foreign key: one column serves three tables), created
 * before `before`; answers their storage keys.
 */
export async function deleteFilesOfGoneScopes(exec: Executor, before: Date): Promise<string[]> {
  const goneGroup = and(
    eq(greetingFiles.scope, 'group'),
    notExists(
      exec
        .select({ x: sql`1` })
        .from(groups)
        .where(eq(groups.id, greetingFiles.scopeId)),
    ),
  );
  const goneIvr = and(
    inArray(greetingFiles.scope, ['ivr', 'autoattendantmenu']),
    notExists(
      exec
        .select({ x: sql`1` })
        .from(ivrs)
        .where(eq(ivrs.id, greetingFiles.scopeId)),
    ),
  );
  const rows = await exec
    .delete(greetingFiles)
    .where(and(lt(greetingFiles.creationDate, before), sql`(${goneGroup} OR ${goneIvr})`))
    .returning({ key: greetingFiles.storageKey });
  return rows.map((r) => r.key);
}
