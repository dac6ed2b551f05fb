// The face of the systems module (docs/architecture.md, "Modules"): all that other modules use of
// telephone systems. The pbx module's CloudPBX is a system of type `cloud_pbx` (document 2): it
// makes, reads, renames and deletes its system here, and its statements embed the SQL fragments
// below to read a system's columns; no other module names the systems table.
import { and, asc, eq, inArray, sql, type Column, type SQL } from 'drizzle-orm';
import { isRecord } from '../../shared/records.ts';
import type { Executor } from '../../db/client.ts';
import { systems } from './systems.tables.ts';
import { systemPhoneNumbers } from './phone-numbers.tables.ts';
import type { SystemRow } from './systems.repo.ts';
import { columnsJsonSql, jsonRowReader } from '../../db/row-json.ts';

export type { SystemRow } from './systems.repo.ts';
export { systemsXmpp, type SystemsXmpp } from './gateway.ts';
export { insertSystemWithAccounts, deleteSystemWithAccounts, renameSystem } from './systems.service.ts';

/**
 * These columns of the system whose id is the id of an operation's target `t` (a CloudPBX is keyed
 * by its system's id), as one JSON value: an extra of the authorising statement, so that a read of
 * a CloudPBX is one round trip (issue 25, point 12); `read` gives them back as a partial row. Only
 * the columns the answer shows travel: the whole row is twice the JSON to write and to parse.
 */
export function systemOfTarget<K extends Extract<keyof SystemRow, string>>(
  columns: readonly K[],
): { sql: SQL; read: (json: unknown) => Pick<SystemRow, K> | undefined } {
  const reader = jsonRowReader<Pick<SystemRow, K>>(systems, columns);
  return {
    sql: sql.raw(`(SELECT ${columnsJsonSql(systems, 's', columns)} FROM systems s WHERE s.id = t.id)`),
    read: (json) => (isRecord(json) ? reader(json) : undefined),
  };
}

/** The systems of these ids (in no particular order). */
export async function systemsByIds(exec: Executor, ids: readonly string[]): Promise<SystemRow[]> {
  if (ids.length === 0) return [];
  return exec
    .select()
    .from(systems)
    .where(inArray(systems.id, [...ids]));
}

/** The system of that id, locked until the caller's transaction ends. */
export async function lockSystemRow(exec: Executor, id: string): Promise<SystemRow | undefined> {
  const [row] = await exec.select().from(systems).where(eq(systems.id, id)).for('update');
  return row;
}

/** How many systems of that type the company has (document 2: a company has at most one CloudPBX). */
export async function countCompanySystemsOfType(
  exec: Executor,
  companyId: string,
  type: SystemRow['type'],
): Promise<number> {
  const [r] = await exec
    .select({ n: sql<number>`count(*)::int` })
    .from(systems)
    .where(sql`${systems.companyId} = ${companyId} AND ${systems.type} = ${type}`);
  return r?.n ?? 0;
}

const SYSTEM_COLUMNS = {
  companyId: systems.companyId,
  bpId: systems.bpId,
  name: systems.name,
  pbxId: systems.pbxId,
  creationDate: systems.creationDate,
} as const;

/**
 * A column of the system whose id is `idColumn` (a column of the caller's table), as a correlated
 * subquery on the systems' primary key: for another module's filters and sorts.
 */
export function systemColumnOf(idColumn: Column, column: keyof typeof SYSTEM_COLUMNS): SQL {
  return sql`(SELECT ${SYSTEM_COLUMNS[column]} FROM ${systems} WHERE ${systems.id} = ${idColumn})`;
}

/**
 * The PBX extension of each of these users: the phone number of a telephone system assigned to
 * him (the first by short number when he has several), as the bulk import's device columns name
 * it (pbxShortNumber, pbxInternalNumber; its export, issue 27, point 6).
 */
export async function extensionsOfUsers(
  exec: Executor,
  userIds: readonly string[],
): Promise<Map<string, { shortNumber: string; internalNumber: string }>> {
  const out = new Map<string, { shortNumber: string; internalNumber: string }>();
  if (userIds.length === 0) return out;
  const rows = await exec
    .select({
      userId: systemPhoneNumbers.userId,
      shortNumber: systemPhoneNumbers.shortNumber,
      internalNumber: systemPhoneNumbers.internalNumber,
    })
    .from(systemPhoneNumbers)
    .where(inArray(systemPhoneNumbers.userId, [...userIds]))
    .orderBy(systemPhoneNumbers.shortNumber, systemPhoneNumbers.id);
  for (const r of rows)
    if (r.userId && !out.has(r.userId))
      out.set(r.userId, { shortNumber: r.shortNumber, internalNumber: r.internalNumber });
  return out;
}

// ---------------------------------------------------------------------------------------------
// The bulk import's device modes (issue 27, point 2): a user's PBX extension is a phone number of
// a telephone system of his company, attached to him by updateSystemPhoneNumber (userId).
export { updateSystemPhoneNumber } from './phone-numbers.operations.ts';

/** A phone number of a system of a company, as the import's device lines look it up. */
export interface CompanyPhoneNumber {
  id: string;
  systemId: string;
  shortNumber: string;
  internalNumber: string;
  userId: string | null;
}

const PHONE_NUMBER_KEYS = {
  id: systemPhoneNumbers.id,
  systemId: systemPhoneNumbers.systemId,
  shortNumber: systemPhoneNumbers.shortNumber,
  internalNumber: systemPhoneNumbers.internalNumber,
  userId: systemPhoneNumbers.userId,
} as const;

/**
 * The phone numbers of the company's systems with that short number and/or internal number (both
 * given: both must match), in a stable order (system, short number).
 */
export async function companyPhoneNumbers(
  exec: Executor,
  companyId: string,
  by: { shortNumber?: string | null; internalNumber?: string | null },
): Promise<CompanyPhoneNumber[]> {
  const where = [eq(systems.companyId, companyId)];
  if (by.shortNumber) where.push(eq(systemPhoneNumbers.shortNumber, by.shortNumber));
  if (by.internalNumber) where.push(eq(systemPhoneNumbers.internalNumber, by.internalNumber));
  return exec
    .select(PHONE_NUMBER_KEYS)
    .from(systemPhoneNumbers)
    .innerJoin(systems, eq(systems.id, systemPhoneNumbers.systemId))
    .where(and(...where))
    .orderBy(asc(systemPhoneNumbers.systemId), asc(systemPhoneNumbers.shortNumber));
}

/** The phone numbers of the company's systems attached to the user (his PBX extensions). */
export async function userPhoneNumbers(
  exec: Executor,
  companyId: string,
  userId: string,
): Promise<CompanyPhoneNumber[]> {
  return exec
    .select(PHONE_NUMBER_KEYS)
    .from(systemPhoneNumbers)
    .innerJoin(systems, eq(systems.id, systemPhoneNumbers.systemId))
    .where(and(eq(systems.companyId, companyId), eq(systemPhoneNumbers.userId, userId)))
    .orderBy(asc(systemPhoneNumbers.systemId), asc(systemPhoneNumbers.shortNumber));
}

/** The ids of the company's systems of that type (a company has at most one CloudPBX: document 2). */
export async function companySystemIds(exec: Executor, companyId: string, type: SystemRow['type']): Promise<string[]> {
  const rows = await exec
    .select({ id: systems.id })
    .from(systems)
    .where(and(eq(systems.companyId, companyId), eq(systems.type, type)))
    .orderBy(asc(systems.id));
  return rows.map((r) => r.id);
}
