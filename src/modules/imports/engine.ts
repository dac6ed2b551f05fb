// The work on an import's lines, shared by the check (a dry run) and the import's job (document 3,
// Bulk import; issue 27, points 2 to 4). Records are read from the CSV, judged one by one (reading,
// columns, a login repeated), then applied a batch at a time: in user mode the whole batch's users
// in a few statements (user-lines.ts); in the device and voice modes line by line, each in its own
// savepoint with its extension, subscriber, DDI number and SIP device (device-lines.ts,
// voice-lines.ts). A line is all or nothing: when its part fails, its savepoint is rolled back and
// the undo steps of what it did outside the database run.
import type { FastifyBaseLogger } from 'fastify';
import type { Executor } from '../../db/client.ts';
import type { AppDeps } from '../../http/context.ts';
import type { Role } from '../../authz/roles.ts';
import { errorOutcome } from '../../errors/handler.ts';
import { hashPassword } from '../../shared/passwords.ts';
import { readLine, type Action, type HeaderPlan, type ImportLine } from './columns.ts';
import type { CsvRecord } from './csv.ts';
import { lineError, type LineError } from './line-errors.ts';
import { LineFailure, type DeviceAction, type LineUser, type LineWork, type SubReports } from './lines.ts';
import { applyUserLines, type UserOutcome } from './user-lines.ts';
import { applyDevice, detachDevice } from './device-lines.ts';
import { applyVoice, detachVoice } from './voice-lines.ts';
import type { LineRow } from './imports.repo.ts';

/** Who runs the lines and how (the import's options). */
export interface EngineSpec {
  app: AppDeps;
  callerId: string;
  callerRoles: readonly Role[];
  companyId: string;
  plan: HeaderPlan;
  defaultAction: Action;
  /** nostrict: a wrong value outside the key columns is left out with a warning, instead of failing the line. */
  lenient: boolean;
  /** The offer of the company's default subscription: what a new user's licence is (the report's profiles). */
  defaultProfile: string | undefined;
  log: FastifyBaseLogger;
  now: () => Date;
}

/** A record judged on its own: its line, or the error of its reading. */
export interface Judged {
  record: CsvRecord;
  login: string;
  line?: ImportLine;
  error?: LineError;
  warnings: number;
}

/** A record read into a line of the import, without an error. */
type Ready = Judged & { line: ImportLine };

/** Reads a record into a line (or its error). `firstLines`: the first line of each login met so far. */
export function judge(spec: EngineSpec, record: CsvRecord, firstLines: Map<string, number>): Judged {
  // Objects written whole (no spread of a common part): this runs for every line of an import.
  if (record.problem === 'not_utf8') return { record, warnings: 0, login: '', error: lineError('NOT_UTF8') };
  if (record.problem === 'malformed_quote')
    return { record, warnings: 0, login: '', error: lineError('MALFORMED_QUOTE') };
  if (record.problem === 'field_count')
    return {
      record,
      warnings: 0,
      login: '',
      error: lineError('FIELD_COUNT', { found: record.cells.length, expected: spec.plan.positions.length }),
    };
  const read = readLine(spec.plan, record, spec.defaultAction, spec.lenient);
  if ('error' in read) return { record, warnings: 0, login: read.login, error: read.error };
  const login = read.line.login;
  const first = firstLines.get(login);
  if (first !== undefined && first !== record.line)
    return { record, warnings: 0, login, line: read.line, error: lineError('LOGIN_REPEATED', { first }) };
  firstLines.set(login, record.line);
  return { record, warnings: read.warnings, login, line: read.line };
}

/** The outcome of a line: its report row, the device action it counted. */
export interface Applied {
  row: LineRow;
  warnings: number;
  deviceAction?: DeviceAction;
}

const failedRow = (j: Judged, error: LineError, reports: SubReports = {}): LineRow => ({
  line: j.record.line,
  login: j.login || `line ${j.record.line}`,
  status: 'failed',
  entry: {
    status: 'failed',
    action: j.line?.action ?? 'none',
    line: j.record.line,
    error,
    ...reports,
  },
  raw: j.record.raw,
});

function succeededRow(spec: EngineSpec, j: Judged, o: UserOutcome, reports: SubReports): LineRow {
  const line = j.line;
  return {
    line: j.record.line,
    login: j.login,
    status: 'succeeded',
    entry: {
      status: 'succeeded',
      action: line?.action ?? 'none',
      _user: o.userAction ?? 'none',
      ...(o.user?.id ? { userId: o.user.id } : {}),
      ...(o.user?.created && spec.defaultProfile ? { profiles: { [spec.defaultProfile]: true } } : {}),
      ...reports,
    },
    raw: null,
  };
}

/** The line error of an unexpected failure: an operation's refusal gives its own code and message. */
function unexpected(err: unknown): LineError {
  if (err instanceof LineFailure) return err.error;
  const body = errorOutcome(err);
  return body.errorCode >= 500
    ? lineError('LINE_FAILED', { reason: err instanceof Error ? err.message : String(err) })
    : { code: body.errorDetailsCode, message: body.errorMsg };
}

/** The argon2 hashes of the lines' passwords, computed together off the event loop (issue 27, point 8). */
export async function hashLines(judged: readonly Judged[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  // Only the lines with a password make a promise: most imports have none.
  const work: Promise<void>[] = [];
  for (const j of judged) {
    const password = j.error ? undefined : j.line?.password;
    if (password) work.push(hashPassword(password).then((h) => void out.set(j.record.line, h)));
  }
  await Promise.all(work);
  return out;
}

/** The device or voice part of a line, by mode and action. */
async function extraPart(
  spec: EngineSpec,
  work: LineWork,
  line: ImportLine,
  user: LineUser,
): Promise<{ reports: SubReports; deviceAction?: DeviceAction }> {
  const mode = spec.plan.mode;
  if (mode === 'voice') return line.action === 'detach' ? detachVoice(work, line, user) : applyVoice(work, line, user);
  if (mode === 'device' || mode === 'useranddevice') {
    if (line.action === 'detach') return detachDevice(work, line, user);
    if (line.device) return applyDevice(work, line, user);
  }
  return { reports: {} };
}

/**
 * Applies judged lines on `exec` (a check: reads only) and answers each record's outcome, in order.
 * `hashes`: the lines' password hashes (none on a check).
 */
export async function applyLines(
  spec: EngineSpec,
  exec: Executor,
  judged: readonly Judged[],
  hashes: ReadonlyMap<number, string>,
  dryRun: boolean,
): Promise<Applied[]> {
  const ctx = {
    callerId: spec.callerId,
    callerRoles: spec.callerRoles,
    companyId: spec.companyId,
    now: spec.now(),
    dryRun,
  };
  const ready = judged.filter((j): j is Ready => !j.error && j.line !== undefined);
  const byLine = new Map<number, Applied>();
  const batchable = spec.plan.mode === 'user' || dryRun;
  if (batchable && ready.length) {
    // All the batch's users at once; should the batch's statements fail (a constraint met
    // meanwhile), it is done again line by line below, each line in its own savepoint.
    try {
      const outcomes = await exec.transaction((sp) =>
        applyUserLines(
          { ...ctx, exec: sp },
          ready.map((j) => j.line),
          hashes,
        ),
      );
      for (let i = 0; i < ready.length; i++) {
        const j = ready[i];
        const o = outcomes[i];
        if (o.retry) continue;
        if (o.error) byLine.set(j.record.line, { row: failedRow(j, o.error), warnings: j.warnings });
        else if (spec.plan.mode === 'user' || !o.user)
          byLine.set(j.record.line, { row: succeededRow(spec, j, o, {}), warnings: j.warnings });
        else byLine.set(j.record.line, await extraLine(spec, exec, j, { ...o, user: o.user }, dryRun));
      }
    } catch (err) {
      if (dryRun) throw err;
      spec.log.warn({ err }, 'import: a batch failed as a whole; its lines are applied one by one');
    }
  }
  for (const j of ready) {
    if (byLine.has(j.record.line)) continue;
    byLine.set(j.record.line, await oneLine(spec, exec, j, hashes, ctx));
  }
  return judged.map(
    (j) =>
      byLine.get(j.record.line) ?? {
        row: failedRow(j, j.error ?? lineError('LINE_FAILED', { reason: 'not read' })),
        warnings: j.warnings,
      },
  );
}

/** The device or voice part of a line whose user part a check judged (reads only). */
async function extraLine(
  spec: EngineSpec,
  exec: Executor,
  j: Ready,
  o: UserOutcome & { user: LineUser },
  dryRun: boolean,
): Promise<Applied> {
  const work = lineWork(spec, exec, dryRun, []);
  try {
    const extra = await extraPart(spec, work, j.line, o.user);
    return { row: succeededRow(spec, j, o, extra.reports), warnings: j.warnings, deviceAction: extra.deviceAction };
  } catch (err) {
    return { row: failedRow(j, unexpected(err), err instanceof LineFailure ? err.reports : {}), warnings: j.warnings };
  }
}

function lineWork(spec: EngineSpec, tx: Executor, dryRun: boolean, undo: (() => Promise<void>)[]): LineWork {
  return {
    tx,
    app: spec.app,
    callerId: spec.callerId,
    companyId: spec.companyId,
    now: spec.now(),
    log: spec.log,
    dryRun,
    onFailure: (step) => void undo.push(step),
  };
}

/** How many times a line whose login another writer took meanwhile is judged again. */
const JUDGED_AGAIN = 3;

/** One line in its own savepoint: its user, then its extension or voice; all or nothing. */
async function oneLine(
  spec: EngineSpec,
  exec: Executor,
  j: Ready,
  hashes: ReadonlyMap<number, string>,
  ctx: Omit<Parameters<typeof applyUserLines>[0], 'exec'>,
): Promise<Applied> {
  const undo: (() => Promise<void>)[] = [];
  try {
    return await exec.transaction(async (sp) => {
      let [o] = await applyUserLines({ ...ctx, exec: sp }, [j.line], hashes);
      // Its login was being inserted by another writer when the line read the users: the insert
      // waited for that writer to commit, so judged again the line now finds that user and updates
      // him (issue 27, point 7: two instances importing the same logins at once). A writer that
      // commits the login again and again is not waited for without end.
      for (let again = 0; o.retry && again < JUDGED_AGAIN; again++)
        [o] = await applyUserLines({ ...ctx, exec: sp }, [j.line], hashes);
      if (o.error) throw new LineFailure(o.error);
      if (o.retry)
        throw new LineFailure(lineError('LINE_FAILED', { reason: 'its login was taken meanwhile by another writer' }));
      const extra = o.user ? await extraPart(spec, lineWork(spec, sp, false, undo), j.line, o.user) : { reports: {} };
      return { row: succeededRow(spec, j, o, extra.reports), warnings: j.warnings, deviceAction: extra.deviceAction };
    });
  } catch (err) {
    // The savepoint is rolled back; what the line did outside the database is undone, last first.
    for (const step of undo.reverse())
      await step().catch((e: unknown) => spec.log.error({ err: e }, 'import: an undo step failed'));
    return { row: failedRow(j, unexpected(err), err instanceof LineFailure ? err.reports : {}), warnings: j.warnings };
  }
}
