// Import requests (document 3, Bulk import, rules 1 and 2; issue 27, point 4): an import answers at
// once with its summary, its work runs as a job (imports.jobs.ts); its report is read while it
// runs and after; deleting it allows the same data again.
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import type { Page } from '../../http/paging.ts';
import type { CommandContext } from '../../http/context.ts';
import type { Upload } from '../../http/media.ts';
import type { FilesPort } from '../../ports/files/files.port.ts';
import { rowsOf } from '../../db/raw.ts';
import { fail } from '../../errors/catalogue.ts';
import { userNamesOf } from '../admin/users/users.api.ts';
import { openCsv } from './csv.ts';
import { planHeader, VOICE_COLUMNS, type HeaderPlan } from './columns.ts';
import { cloudPbxOfCompany } from './voice-lines.ts';
import { checkCommandId, recordImport } from './commands.service.ts';
import * as repo from './imports.repo.ts';
import type { ImportRoute, ReportEntryValue } from './imports.tables.ts';
import { toSummary, type ImportRow } from './summaries.ts';

/** The job that runs an import's lines (imports.jobs.ts). */
export const IMPORT_JOB = 'imports.run';

export type StartRoute = ImportRoute;

/** The query of the check and import routes (imports.schemas.ts ImportQuery). */
export interface ImportQueryValues {
  companyId?: string;
  delimiter?: string;
  comment?: string;
  label?: string;
  commandId?: string;
  noemails?: boolean | 'true' | 'false';
  nostrict?: boolean | 'true' | 'false';
}

export const flag = (v: boolean | 'true' | 'false' | undefined) => v === true || v === 'true';

/** The whole CSV of a request, refused with 413 as soon as it passes `max` bytes (issue 27, point 7). */
export async function readCsvBody(upload: Upload | undefined, max: number): Promise<Buffer> {
  if (!upload) fail('CSV_NO_HEADER');
  if (upload.kind === 'buffer') {
    if (upload.data.length > max) fail('BODY_TOO_LARGE', { limit: max });
    return upload.data;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of upload.stream) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += b.length;
    if (size > max) {
      upload.stream.destroy();
      fail('BODY_TOO_LARGE', { limit: max });
    }
    chunks.push(b);
  }
  return Buffer.concat(chunks);
}

/**
 * The header of the CSV read and its mode decided (document 3: the mode follows from the columns,
 * and from the route for voice). A header naming no column of the route is 400902; a voice route
 * with no voice column, or another route with only voice columns, is 400904.
 */
export async function planOf(
  exec: Executor,
  data: Buffer,
  route: ImportRoute | 'check' | 'checkSync' | 'checkVoice',
  query: ImportQueryValues,
  companyId: string,
): Promise<{ plan: HeaderPlan; delimiter: string; comment: string }> {
  const { header } = await openCsv(data, query);
  const voiceRoute = route === 'voice' || route === 'checkVoice';
  const plan = planHeader(header.columns, route);
  if (!plan) {
    // The voice columns of a voice CSV sent to another route (or the reverse) say which route it needs.
    const other = planHeader(header.columns, voiceRoute ? 'import' : 'voice');
    if (other && (voiceRoute || other.positions.some((c) => c && VOICE_ONLY.has(c)))) fail('CSV_MODE_MISMATCH');
    fail('CSV_NO_KNOWN_COLUMN');
  }
  const known = plan.positions.filter((c) => c !== undefined);
  if (voiceRoute && !known.some((c) => VOICE_ONLY.has(c))) fail('CSV_MODE_MISMATCH');
  if (!voiceRoute && known.length === 1 && header.columns.some((c) => VOICE_ONLY.has(c))) fail('CSV_MODE_MISMATCH');
  if (voiceRoute && !(await cloudPbxOfCompany(exec, companyId))) fail('IMPORT_NO_CLOUDPBX');
  return { plan, delimiter: header.delimiter, comment: header.comment };
}

/** The columns only the voice routes understand (columns.ts). */
const VOICE_ONLY = new Set(VOICE_COLUMNS);

/** Rule 1: the reqId is the hash of the CSV data (for the company: the same file may go to two companies). */
export const reqIdOf = (companyId: string, data: Buffer) =>
  createHash('sha256').update(companyId).update('\n').update(data).digest('hex').slice(0, 40);

async function displayNameOf(exec: Executor, userId: string): Promise<string> {
  const [row] = rowsOf<{ n: { displayName: string; loginEmail: string } | null }>(
    await exec.execute(sql`SELECT ${userNamesOf(sql`${userId}`)} AS n`),
  );
  return row?.n?.displayName || row?.n?.loginEmail || userId;
}

export async function startImport(
  cmd: CommandContext<{ id: string }>,
  route: StartRoute,
  query: ImportQueryValues,
  upload: Upload | undefined,
) {
  const companyId = cmd.target.id;
  const data = await readCsvBody(upload, cmd.deps.config.importMaxBytes);
  const { plan, delimiter, comment } = await planOf(cmd.db, data, route, query, companyId);
  const reqId = reqIdOf(companyId, data);
  if (await repo.findImport(cmd.db, reqId)) fail('IMPORT_ALREADY_EXISTS', { reqId });
  // A commandId of another company is refused before any work (commands.service.ts).
  if (query.commandId) await checkCommandId(cmd.db, query.commandId, companyId);
  const fileKey = `imports/${reqId}.csv`;
  // Kept until the import ends, so that a restarted service resumes it (issue 27, point 4).
  await cmd.deps.ports.files.put(fileKey, data, 'text/csv');
  const displayName = await displayNameOf(cmd.db, cmd.caller.userId);
  const row = await cmd.db.transaction(async (tx) => {
    const made = await repo.insertImport(tx, {
      id: reqId,
      companyId,
      userId: cmd.caller.userId,
      displayName,
      label: query.label ?? null,
      route,
      mode: plan.mode,
      options: { delimiter, comment, noemails: flag(query.noemails), nostrict: flag(query.nostrict) },
      commandId: query.commandId ?? null,
      fileKey,
      startTime: cmd.now,
    });
    if (!made) fail('IMPORT_ALREADY_EXISTS', { reqId });
    if (query.commandId)
      await recordImport(tx, { commandId: query.commandId, companyId, userId: cmd.caller.userId, reqId, now: cmd.now });
    // The job exists only if the request does (the same transaction). An application built without
    // its background sends no job, as for every job of the service (src/http/context.ts): the
    // import then stays Pending (the authorisation matrix calls the route so).
    await cmd.deps.queue?.enqueue(IMPORT_JOB, { reqId }, { tx, singletonKey: `${IMPORT_JOB}:${reqId}` });
    return made;
  });
  // Committed: this instance's worker takes the job now instead of at its next poll (half a second).
  cmd.deps.queue?.wake(IMPORT_JOB);
  return {
    reqId: row.id,
    status: row.status,
    label: row.label,
    mode: row.mode,
    displayName: row.displayName,
    userId: row.userId,
    startTime: row.startTime,
  };
}

/** `{data}` whole (document 3); a page with its total when one is asked (issue 28, point 9). */
export async function listImports(db: Executor, companyId: string, page?: Page) {
  const data = (await repo.listImportRows(db, companyId, page)).map(toSummary);
  if (!page) return { data };
  return { data, total: await repo.countImports(db, companyId), ...page };
}

/**
 * The report (document 3, Import report): the summary, and with format=full each line's entry
 * keyed by login (a login's later lines under `<login>#<line>`, a line without login under
 * `line <n>`) and the failing lines as they were written.
 */
export async function importReport(
  db: Executor,
  target: ImportRow,
  format: 'small' | 'full',
  o: { page?: Page; status?: repo.LineStatus } = {},
) {
  const summary = toSummary(target);
  if (format === 'small') return summary;
  if (o.page) return reportPageOf(db, target, summary, o.page, o.status);
  const report: Record<string, ReportEntryValue> = {};
  const failingLines: string[] = [];
  const keys = new Set<string>();
  for await (const l of repo.reportLines(db, target.id)) {
    // The key depends on every line before it, whatever the status asked for.
    const key = keys.has(l.login) ? `${l.login}#${l.line}` : l.login;
    keys.add(key);
    if (o.status && l.status !== o.status) continue;
    report[key] = l.entry;
    if (l.status === 'failed' && l.raw !== null) failingLines.push(l.raw);
  }
  return { ...summary, report, failingLines };
}

/**
 * A page of the report (issue 28, point 9): its lines keyed as in the whole report, the failing
 * lines among them, and the total of the report's lines (of that status) in `reportTotal`.
 * Paging through with status=failed gives every failing line, a page at a time.
 */
async function reportPageOf(
  db: Executor,
  target: ImportRow,
  summary: ReturnType<typeof toSummary>,
  page: Page,
  status: repo.LineStatus | undefined,
) {
  const rows = await repo.reportPage(db, target.id, status, page);
  const report: Record<string, ReportEntryValue> = {};
  const failingLines: string[] = [];
  for (const l of rows) {
    report[l.first ? l.login : `${l.login}#${l.line}`] = l.entry;
    if (l.status === 'failed' && l.raw !== null) failingLines.push(l.raw);
  }
  const reportTotal = await repo.countReportLines(db, target.id, status);
  return { ...summary, report, failingLines, reportTotal, reportLimit: page.limit, reportOffset: page.offset };
}

/** Deletes a report; a running import stops at its next batch (its row is gone), its file with it. */
export async function deleteReport(db: Executor, files: FilesPort, target: ImportRow) {
  await repo.deleteImportRow(db, target.id);
  if (target.fileKey) await files.delete(target.fileKey).catch(() => undefined);
  return { reqId: target.id, status: 'Deleted' as const };
}
