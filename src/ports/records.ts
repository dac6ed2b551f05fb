// The embedded implementations keep their state as records of port_records: one row per object
// of the external system, its fields as JSON.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { newId } from '../shared/ids.ts';
import { portRecords } from './ports.tables.ts';

export interface Records<T extends object> {
  insert(data: T, opts?: { id?: string; parentId?: string | null }): Promise<T & { id: string }>;
  get(id: string): Promise<(T & { id: string }) | undefined>;
  update(id: string, patch: Partial<T>): Promise<(T & { id: string }) | undefined>;
  remove(id: string): Promise<boolean>;
  children(parentId: string): Promise<Array<T & { id: string }>>;
}

export function records<T extends object>(db: Db, port: string, kind: string): Records<T> {
  const key = (id: string) => and(eq(portRecords.port, port), eq(portRecords.kind, kind), eq(portRecords.id, id));
  // The data a record holds is what this kind's insert and update wrote (typed by its SQL, below).
  const fields = { id: portRecords.id, data: sql<T>`${portRecords.data}` };
  const out = (r: { id: string; data: T }) => ({ ...r.data, id: r.id });
  return {
    async insert(data, opts = {}) {
      const id = opts.id ?? newId();
      await db.insert(portRecords).values({ port, kind, id, parentId: opts.parentId ?? null, data });
      return { ...data, id };
    },
    async get(id) {
      const [r] = await db.select(fields).from(portRecords).where(key(id));
      return r ? out(r) : undefined;
    },
    async update(id, patch) {
      const [r] = await db
        .update(portRecords)
        .set({ data: sql`${portRecords.data} || ${JSON.stringify(patch)}::jsonb`, updatedAt: sql`now()` })
        .where(key(id))
        .returning(fields);
      return r ? out(r) : undefined;
    },
    async remove(id) {
      return (await db.delete(portRecords).where(key(id)).returning({ id: portRecords.id })).length > 0;
    },
    async children(parentId) {
      const rows = await db
        .select(fields)
        .from(portRecords)
        .where(and(eq(portRecords.port, port), eq(portRecords.kind, kind), eq(portRecords.parentId, parentId)))
        .orderBy(asc(portRecords.position));
      return rows.map(out);
    },
  };
}

/**
 * Records of a port's kind whose `data->>field` (an ISO 8601 UTC text) lies in [from, to), in
 * that order: the usage records the billing run reads for a period.
 */
export async function recordsBetween<T extends object>(
  db: Db,
  port: string,
  kind: string,
  field: string,
  from: string,
  to: string,
): Promise<Array<T & { id: string }>> {
  const rows = await db
    .select({ id: portRecords.id, data: sql<T>`${portRecords.data}` })
    .from(portRecords)
    .where(
      and(
        eq(portRecords.port, port),
        eq(portRecords.kind, kind),
        sql`${portRecords.data}->>${field} >= ${from}`,
        sql`${portRecords.data}->>${field} < ${to}`,
      ),
    )
    .orderBy(sql`${portRecords.data}->>${field}`, asc(portRecords.id));
  return rows.map((r) => ({ ...r.data, id: r.id }));
}
