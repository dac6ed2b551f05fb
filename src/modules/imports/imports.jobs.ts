// The job of an import (document 3, rule 2: "the work then runs and the report is read later";
// issue 27, point 4). It acts for the administrator who asked: each batch is authorised again as
// his importCsv request would be (a caller who lost the right, or a deleted report, stops it). A
// batch's lines, their reports, the counters and the line the work resumes after are written in
// one transaction, under the lock of the import's row and of its company: a service killed in the
// middle resumes after its last committed batch, losing or doubling no line, and two instances
// importing into one company at once never make a user twice.
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/raw.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../../jobs/queue.ts';
import type { JobDeps } from '../module.ts';
import type { AppDeps } from '../../http/context.ts';
import { authorise, planOf as resolvePlanOf } from '../../http/authorise.ts';
import { companyProfiles } from '../commerce/commerce.api.ts';
import { openCsv } from './csv.ts';
import { planHeader } from './columns.ts';
import { applyLines, hashLines, judge, type EngineSpec, type Judged } from './engine.ts';
import { importCsv } from './imports.operations.ts';
import { commandEnded } from './commands.service.ts';
import * as repo from './imports.repo.ts';
import type { ImportRow } from './summaries.ts';

export const IMPORT_JOB = 'imports.run';

/** Imports whose work stopped with their instance are taken up again at start (their job may still look active). */
async function resumePending(queue: JobQueue, deps: JobDeps): Promise<void> {
  const pending = rowsOf<{ id: string }>(await deps.db.execute(sql`SELECT id FROM imports WHERE status = 'Pending'`));
  const at = Date.now();
  for (const { id: reqId } of pending)
    await queue.enqueue(IMPORT_JOB, { reqId }, { singletonKey: `imports.run:${reqId}:${at}` });
}

export async function defineImportJobs(queue: JobQueue, deps: JobDeps): Promise<void> {
  await queue.define<{ reqId: string }>(
    IMPORT_JOB,
    async ({ reqId }, job) => {
      if (!deps.app) throw new Error('the import job needs the application (JobDeps.app)');
      await runImport(deps.app, deps.log ?? silentLog, reqId, () => job.signal.aborted);
    },
    // An import starts within half a second (pg-boss's shortest polling interval).
    {
      retryLimit: 10,
      retryDelaySeconds: 2,
      backoff: true,
      retryDelayMaxSeconds: 60,
      expireInSeconds: 4 * 3600,
      pollingIntervalSeconds: 0.5,
    },
  );
  await resumePending(queue, deps);
}

const noop = () => undefined;
const silentLog: FastifyBaseLogger = {
  level: 'silent',
  fatal: noop,
  error: noop,
  warn: noop,
  info: noop,
  debug: noop,
  trace: noop,
  silent: noop,
  child: () => silentLog,
};

/** Runs (or resumes) the import `reqId` to its end. */
export async function runImport(app: AppDeps, log: FastifyBaseLogger, reqId: string, aborted: () => boolean) {
  const db = app.database.db;
  const row = await repo.findImport(db, reqId);
  if (!row || row.status !== 'Pending') return;
  const files = app.background?.ports.files;
  if (!files) throw new Error('the import job needs the file store');
  const data = row.fileKey ? (await files.get(row.fileKey))?.bytes : undefined;
  if (!data) {
    // Its file is gone (deleted with its report): nothing more to do.
    await repo.finish(db, reqId, app.now());
    return;
  }
  const { header, records } = await openCsv(data, { delimiter: row.options.delimiter, comment: row.options.comment });
  const plan = planHeader(header.columns, row.route);
  if (!plan) throw new Error(`import ${reqId}: its header no longer reads`);
  const profiles = await companyProfiles(db, row.companyId);
  const spec: EngineSpec = {
    app,
    callerId: row.userId,
    callerRoles: [],
    companyId: row.companyId,
    plan,
    defaultAction: row.route === 'sync' ? 'sync' : 'upsert',
    lenient: row.options.nostrict,
    defaultProfile: profiles.find((p) => p.isDefault)?.name,
    log,
    now: app.now,
  };
  const batchLines = app.config.importBatchLines;
  let batch: Judged[] = [];
  const inBatch = new Map<string, number>();
  for await (const record of records) {
    if (record.line <= row.doneThrough) continue;
    batch.push(judge(spec, record, inBatch));
    if (batch.length >= batchLines) {
      if (!(await runBatch(app, spec, row, batch)) || aborted()) return;
      batch = [];
      inBatch.clear();
    }
  }
  if (batch.length && !(await runBatch(app, spec, row, batch))) return;
  await db.transaction(async (tx) => {
    const done = await repo.finish(tx, reqId, app.now());
    if (done?.commandId) await commandEnded(tx, { commandId: done.commandId, userId: done.userId });
  });
  await files.delete(`imports/${reqId}.csv`).catch(() => undefined);
}

/**
 * One batch: authorised for the caller, under the locks, its lines applied and reported, the
 * counters moved, in one transaction. False when the import must stop (its report deleted, or the
 * caller may no longer import into the company: the import then ends as it is).
 */
async function runBatch(app: AppDeps, spec: EngineSpec, row: ImportRow, batch: Judged[]): Promise<boolean> {
  const db = app.database.db;
  // The caller, as his importCsv request would be authorised now (src/http/authorise.ts).
  let roles;
  try {
    const auth = await authorise(
      app.database,
      app.now(),
      importCsv,
      resolvePlanOf(importCsv),
      { userId: row.userId },
      {
        params: {},
        query: { companyId: row.companyId },
        body: undefined,
      },
    );
    roles = auth.caller.roles;
  } catch (err) {
    spec.log.warn({ err, reqId: row.id }, 'import: its caller may no longer import into the company; it ends here');
    await repo.finish(db, row.id, app.now());
    return false;
  }
  const hashes = await hashLines(batch);
  return db.transaction(async (tx) => {
    const locked = await repo.lockImport(tx, row.id);
    if (!locked || locked.status !== 'Pending') return false;
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`imports:${row.companyId}`}))`);
    // Lines another worker committed meanwhile are not done twice; a login of an earlier batch is repeated.
    const todo = batch.filter((j) => j.record.line > locked.doneThrough);
    if (todo.length === 0) return true;
    const earlier = await repo.firstLinesOf(
      tx,
      row.id,
      todo.flatMap((j) => (j.line ? [j.line.login] : [])),
    );
    const judged = todo.map((j) => {
      const first = j.line ? earlier.get(j.line.login) : undefined;
      return first === undefined || j.error
        ? j
        : { ...j, error: { code: 1007, message: `column loginEmail: this login is on line ${first} already` } };
    });
    const applied = await applyLines({ ...spec, callerRoles: roles }, tx, judged, hashes, false);
    await repo.insertLines(
      tx,
      row.id,
      applied.map((a) => a.row),
    );
    const failed = applied.filter((a) => a.row.status === 'failed').length;
    await repo.advance(tx, row.id, todo[todo.length - 1].record.line, {
      succeeded: applied.length - failed,
      failed,
      warnings: applied.reduce((n, a) => n + a.warnings, 0),
      total: applied.length,
    });
    return true;
  });
}
