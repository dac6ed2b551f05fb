// SQL of the bulk import: its requests, the reports of their lines, the results of commandIds.
import { and, count, desc, eq, inArray, min, sql } from 'drizzle-orm';
import type { Page } from '../../http/paging.ts';
import type { Executor } from '../../db/client.ts';
import { rowsInserter } from '../../db/raw.ts';
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

/** A company's imports, the latest first, all or a page (id breaks ties: pages neither repeat nor skip). */
export async function listImportRows(exec: Executor, companyId: string, page?: Page): Promise<ImportRow[]> {
  const query = exec
    .select()
    .from(imports)
    .where(eq(imports.companyId, companyId))
    .orderBy(desc(imports.startTime), imports.id)
    .$dynamic();
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

export async function countImports(exec: Executor, companyId: string): Promise<number> {
  const [row] = await exec.select({ n: count() }).from(imports).where(eq(imports.companyId, companyId));
  return row?.n ?? 0;
}

export async function deleteImportRow(exec: Executor, id: string): Promise<void> {
  await exec.delete(imports).where(eq(imports.id, id));
}

/** A batch's lines are written: the counters move. */
export async function advance(
  exec: Executor,
  id: string,
  d: { succeeded: number; failed: number; warnings: number; total: number },
): Promise<void> {
  await exec
    .update(imports)
    .set({
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

const insertLineRows = rowsInserter(importLines, { skipConflicts: true, returning: 'line' });

/** Writes the lines' reports; answers the lines written (a line reported already is kept as it was). */
export async function insertLines(exec: Executor, reqId: string, rows: readonly LineRow[]): Promise<Set<number>> {
  const made = await insertLineRows(
    exec,
    rows.map((r) => ({ reqId, line: r.line, login: r.login, status: r.status, entry: r.entry, raw: r.raw })),
  );
  return new Set(made.map(Number));
}

/** The lines between `from` and `to` whose report is written (their work committed). */
export async function linesDone(exec: Executor, reqId: string, from: number, to: number): Promise<Set<number>> {
  const rows = await exec
    .select({ line: importLines.line })
    .from(importLines)
    .where(and(eq(importLines.reqId, reqId), sql`${importLines.line} BETWEEN ${from} AND ${to}`));
  return new Set(rows.map((r) => r.line));
}

export async function importStatus(exec: Executor, id: string): Promise<string | undefined> {
  const [row] = await exec.select({ status: imports.status }).from(imports).where(eq(imports.id, id));
  return row?.status;
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

export type LineStatus = LineRow['status'];

const ofReport = (reqId: string, status: LineStatus | undefined) =>
  status ? and(eq(importLines.reqId, reqId), eq(importLines.status, status)) : eq(importLines.reqId, reqId);

/**
 * One page of the report's lines (of a status), in the order of the CSV (the line number is unique
 * in a report), each with whether it is its login's first line of the whole report: the key a line
 * has in the whole report depends on the lines before it, of any status and on any page.
 */
export async function reportPage(
  exec: Executor,
  reqId: string,
  status: LineStatus | undefined,
  page: Page,
): Promise<(LineRow & { first: boolean })[]> {
  const rows = await exec
    .select({
      line: importLines.line,
      login: importLines.login,
      status: importLines.status,
      entry: importLines.entry,
      raw: importLines.raw,
    })
    .from(importLines)
    .where(ofReport(reqId, status))
    .orderBy(importLines.line)
    .limit(page.limit)
    .offset(page.offset);
  if (rows.length === 0) return [];
  const firsts = await exec
    .select({ login: importLines.login, first: min(importLines.line) })
    .from(importLines)
    .where(and(eq(importLines.reqId, reqId), inArray(importLines.login, [...new Set(rows.map((r) => r.login))])))
    .groupBy(importLines.login);
  const firstOf = new Map(firsts.map((f) => [f.login, f.first]));
  return rows.map((r) => ({ ...r, first: firstOf.get(r.login) === r.line }));
}

/** How many lines the report has (of a status): the total of its pages. */
export async function countReportLines(exec: Executor, reqId: string, status: LineStatus | undefined): Promise<number> {
  const [row] = await exec.select({ n: count() }).from(importLines).where(ofReport(reqId, status));
  return row?.n ?? 0;
}
