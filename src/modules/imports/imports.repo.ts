// SQL of the bulk import: its requests, the reports of their lines, the results of commandIds.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import {
  importLines,
  imports,
  type ImportOptions,
  type ImportRoute,
  type ImportMode,
  type ReportEntryValue,
} from './imports.tables.ts';
import type { ImportRow } from './summaries.ts';

export async function findImport(exec: Executor, id: string): Promise<ImportRow | undefined> {
  const [row] = await exec.select().from(imports).where(eq(imports.id, id));
  return row;
}

/** The import's row, locked until the transaction ends (one batch at a time, whatever the instance). */
export async function lockImport(exec: Executor, id: string): Promise<ImportRow | undefined> {
  const [row] = await exec.select().from(imports).where(eq(imports.id, id)).for('update');
  return row;
}

/** Inserts the request; false when that reqId exists (the same data for the same company). */
export async function insertImport(
  exec: Executor,
  row: {
    id: string;
    companyId: string;
    userId: string;
    displayName: string;
    label: string | null;
    route: ImportRoute;
    mode: ImportMode;
    options: ImportOptions;
    commandId: string | null;
    fileKey: string;
    startTime: Date;
  },
): Promise<ImportRow | undefined> {
  const [made] = await exec.insert(imports).values(row).onConflictDoNothing().returning();
  return made;
}

export async function listImportRows(exec: Executor, companyId: string): Promise<ImportRow[]> {
  return exec
    .select()
    .from(imports)
    .where(eq(imports.companyId, companyId))
    .orderBy(desc(imports.startTime), imports.id);
}

export async function deleteImportRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(imports).where(eq(imports.id, id));
}

/** A batch's lines are written: the counters move and the work resumes after `through`. */
export async function advance(
  exec: Executor,
  id: string,
  through: number,
  d: { succeeded: number; failed: number; warnings: number; total: number },
): Promise<void> {
  await exec
    .update(imports)
    .set({
      doneThrough: through,
      succeeded: sql`${imports.succeeded} + ${d.succeeded}`,
      failed: sql`${imports.failed} + ${d.failed}`,
      warnings: sql`${imports.warnings} + ${d.warnings}`,
      total: sql`${imports.total} + ${d.total}`,
    })
    .where(eq(imports.id, id));
}

export async function finish(exec: Executor, id: string, at: Date): Promise<ImportRow | undefined> {
  const [row] = await exec
    .update(imports)
    .set({ status: 'Terminated', endTime: at, fileKey: null })
    .where(and(eq(imports.id, id), eq(imports.status, 'Pending')))
    .returning();
  return row;
}

export interface LineRow {
  line: number;
  login: string;
  status: 'succeeded' | 'failed';
  entry: ReportEntryValue;
  raw: string | null;
}

export async function insertLines(exec: Executor, reqId: string, rows: readonly LineRow[]): Promise<void> {
  if (rows.length === 0) return;
  await exec
    .insert(importLines)
    .values(rows.map((r) => ({ reqId, ...r })))
    .onConflictDoNothing();
}

/** The first line of each of these logins already written by this import (a login repeated across batches). */
export async function firstLinesOf(
  exec: Executor,
  reqId: string,
  logins: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (logins.length === 0) return out;
  const rows = await exec
    .select({ login: importLines.login, line: sql<number>`min(${importLines.line})` })
    .from(importLines)
    .where(and(eq(importLines.reqId, reqId), sql`${importLines.login} = ANY(${sql.param(logins)}::text[])`))
    .groupBy(importLines.login);
  for (const r of rows) out.set(r.login, r.line);
  return out;
}

/** Every line of the report, in order, a page at a time (bounded memory for a report of a million lines). */
export async function* reportLines(exec: Executor, reqId: string, pageSize = 5000): AsyncGenerator<LineRow> {
  let after = 0;
  for (;;) {
    const rows = await exec
      .select({
        line: importLines.line,
        login: importLines.login,
        status: importLines.status,
        entry: importLines.entry,
        raw: importLines.raw,
      })
      .from(importLines)
      .where(and(eq(importLines.reqId, reqId), sql`${importLines.line} > ${after}`))
      .orderBy(importLines.line)
      .limit(pageSize);
    yield* rows;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].line;
  }
}
