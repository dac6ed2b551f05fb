// SQL of the phone numbers of a system.
import { and, asc, desc, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { escapeLike } from '../../db/like.ts';
import type { Paging } from '../../http/paging.ts';
import { systemPhoneNumbers } from './phone-numbers.tables.ts';
import type { PHONE_NUMBER_SORT_FIELDS } from './phone-numbers.schemas.ts';

export type PhoneNumberRow = typeof systemPhoneNumbers.$inferSelect;
export type NewPhoneNumber = typeof systemPhoneNumbers.$inferInsert;

/** Creates the reported numbers, or updates those whose shortNumber the system already has. */
export async function upsertPhoneNumbers(exec: Executor, rows: NewPhoneNumber[]): Promise<PhoneNumberRow[]> {
  const out: PhoneNumberRow[] = [];
  for (const r of rows) {
    const { id: _id, systemId: _s, shortNumber: _n, ...rest } = r;
    const [row] = await exec
      .insert(systemPhoneNumbers)
      .values(r)
      .onConflictDoUpdate({ target: [systemPhoneNumbers.systemId, systemPhoneNumbers.shortNumber], set: rest })
      .returning();
    out.push(row);
  }
  return out;
}

export async function updatePhoneNumberRow(
  exec: Executor,
  id: string,
  patch: Partial<NewPhoneNumber>,
): Promise<PhoneNumberRow | undefined> {
  const [row] = await exec.update(systemPhoneNumbers).set(patch).where(eq(systemPhoneNumbers.id, id)).returning();
  return row;
}

const SORT = {
  shortNumber: systemPhoneNumbers.shortNumber,
  internalNumber: systemPhoneNumbers.internalNumber,
  lastName: systemPhoneNumbers.lastName,
  firstName: systemPhoneNumbers.firstName,
  deviceName: systemPhoneNumbers.deviceName,
  pbxUserId: systemPhoneNumbers.pbxUserId,
};

export interface PhoneNumberFilters {
  shortNumber?: string;
  internalNumber?: string;
  pbxUserId?: string;
  companyPrefix?: string;
  isMonitored?: boolean;
  name?: string;
  deviceName?: string;
  isAssignedToUser?: boolean;
}

export async function listPhoneNumberRows(
  exec: Executor,
  systemId: string,
  f: PhoneNumberFilters,
  p: Paging<(typeof PHONE_NUMBER_SORT_FIELDS)[number]>,
): Promise<{ rows: PhoneNumberRow[]; total: number }> {
  const n = systemPhoneNumbers;
  const c: (SQL | undefined)[] = [eq(n.systemId, systemId)];
  if (f.shortNumber) c.push(sql`${n.shortNumber} LIKE ${`${escapeLike(f.shortNumber)}%`}`);
  if (f.internalNumber) c.push(sql`${n.internalNumber} LIKE ${`${escapeLike(f.internalNumber)}%`}`);
  if (f.pbxUserId !== undefined) c.push(eq(n.pbxUserId, f.pbxUserId));
  if (f.companyPrefix !== undefined) c.push(eq(n.companyPrefix, f.companyPrefix));
  if (f.isMonitored !== undefined) c.push(eq(n.isMonitored, f.isMonitored));
  if (f.name) c.push(or(ilike(n.firstName, `${escapeLike(f.name)}%`), ilike(n.lastName, `${escapeLike(f.name)}%`)));
  if (f.deviceName !== undefined) c.push(eq(n.deviceName, f.deviceName));
  if (f.isAssignedToUser !== undefined) c.push(f.isAssignedToUser ? isNotNull(n.userId) : isNull(n.userId));
  const where = and(...c.filter((x): x is SQL => !!x));
  const dir = p.sortOrder === 1 ? asc : desc;
  const [rows, count] = await Promise.all([
    exec.select().from(n).where(where).orderBy(dir(SORT[p.sortField]), dir(n.id)).limit(p.limit).offset(p.offset),
    exec
      .select({ n: sql<number>`count(*)::int` })
      .from(n)
      .where(where),
  ]);
  return { rows, total: count[0]?.n ?? 0 };
}
