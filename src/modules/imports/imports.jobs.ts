// The job of an import (document 3, rule 2: "the work then runs and the report is read later";
// issue 27, point 4). It acts for the administrator who asked: each batch is authorised again as
// his importCsv request would be (a caller who lost the right, or a deleted report, stops it). A
// batch's lines, their reports and the counters are written in one transaction: a line's report
// exists exactly when its work committed. A service killed in the middle resumes the import after
// its restart and redoes only the lines without a report, losing or doubling none. On a PostgreSQL
// server IMPORT_BATCHES_IN_FLIGHT batches (default 3) are in flight at once (the database works on every core); a login made by
// another writer meanwhile (a batch, an import of the same company on another instance) is met
// by the unique index and the line judged again, so no user is ever made twice.
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/raw.ts';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { JobQueue } from '../../jobs/queue.ts';
import type { JobDeps } from '../module.ts';
import type { AppDeps } from '../../http/context.ts';
import { authorise, planOf as resolvePlanOf } from '../../http/authorise.ts';
import { companyProfiles } from '../commerce/commerce.api.ts';
import { openCsv } from './csv.ts';
import { planHeader } from './columns.ts';
import { applyLines, hashLines, judge, type EngineSpec, type Judged } from './engine.ts';
import { importCsv } from './imports.operations.ts';
import { IMPORT_JOB } from './imports.service.ts';
import { commandEnded } from './commands.service.ts';
import * as repo from './imports.repo.ts';
import { lineError } from './line-errors.ts';
import type { ImportRow } from './summaries.ts';

/** Imports whose work stopped with their instance are taken up again at start (their job may still look active). */
async function resumePending(queue: JobQueue, deps: JobDeps): Promise<void> {
  const pending = rowsOf<{ id: string }>(await deps.db.execute(sql`SELECT id FROM imports WHERE status = 'Pending'`));
  const at = Date.now();
  for (const { id: reqId } of pending)
    await queue.enqueue(IMPORT_JOB, { reqId }, { singletonKey: `${IMPORT_JOB}:${reqId}:${at}` });
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

/** A logger that writes nothing, for a background started without one (tests). */
const silentLog: FastifyBaseLogger = pino({ enabled: false });

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
  const width = app.database.kind === 'server' ? app.config.importBatchesInFlight : 1;
  const inFlight: Promise<boolean>[] = [];
  let stopped = false;
  // Waits for the oldest batch. An import that must stop (its report deleted, its caller's right
  // gone) ends here; a job stopped with its queue fails, so that it is tried again.
  const settle = async () => {
    const ok = await inFlight.shift();
    if (!ok) stopped = true;
    else if (aborted()) throw new Error(`import ${reqId}: its job was stopped; it resumes at its next attempt`);
  };
  // The first line of each login in the whole file: a login repeated is refused on its later lines (LOGIN_REPEATED).
  const firstLines = new Map<string, number>();
  let batch: Judged[] = [];
  try {
    for await (const chunk of records)
      for (const record of chunk) {
        batch.push(judge(spec, record, firstLines));
        if (batch.length < batchLines) continue;
        inFlight.push(runBatch(app, spec, row, batch));
        batch = [];
        if (inFlight.length >= width) await settle();
        if (stopped) return;
      }
    if (batch.length) inFlight.push(runBatch(app, spec, row, batch));
    while (inFlight.length && !stopped) await settle();
  } finally {
    // A batch that fails makes the job fail (and retry): the others end first.
    await Promise.allSettled(inFlight);
  }
  if (stopped) return;
  await db.transaction(async (tx) => {
    const done = await repo.finish(tx, reqId, app.now());
    if (done?.commandId) await commandEnded(tx, { commandId: done.commandId, userId: done.userId });
  });
  await files.delete(`imports/${reqId}.csv`).catch(() => undefined);
}

/**
 * One batch: authorised for the caller, its lines not yet reported applied and reported, the
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
  const withRoles = { ...spec, callerRoles: roles };
  try {
    return await writeLines(db, withRoles, row, batch, hashes);
  } catch (err) {
    // A batch that cannot be written whole (a value the database refuses in one line's report, a
    // fault in one line's work) is written line by line, each in its own transaction; a line that
    // still fails is reported failed alone, so an import always moves on. Should the database be
    // unreachable, the report of the failure fails too, and the job is tried again later.
    spec.log.warn(
      { err, reqId: row.id },
      'import: a batch could not be written whole; its lines are written one by one',
    );
    for (const j of batch) {
      try {
        if (!(await writeLines(db, withRoles, row, [j], hashes))) return false;
      } catch (lineErr) {
        spec.log.error({ err: lineErr, reqId: row.id, line: j.record.line }, 'import: a line could not be written');
        const reason = lineErr instanceof Error ? lineErr.message : String(lineErr);
        const failed: Judged = {
          ...j,
          line: undefined,
          error: lineError('LINE_FAILED', { reason: reason.slice(0, 200) }),
        };
        if (
          !(await writeLines(
            db,
            withRoles,
            row,
            [{ ...failed, record: { ...j.record, raw: j.record.raw.slice(0, 10_000).split('\u0000').join('\uFFFD') } }],
            hashes,
          ))
        )
          return false;
      }
    }
    return true;
  }
}

// The settings of a batch's transaction (writeLines), in one statement:
// - plans made for these values: a plan kept from when the tables were small would make each
//   batch slower than the last as the import fills them;
// - no scan of a whole table: the users the import makes outgrow their statistics (a young
//   database; the embedded one, which runs no autovacuum, never has any), and PostgreSQL then
//   takes a batch's thousand logins (findUsersByLogins: `lower(login_email) = ANY (...)`) to
//   match a two-hundredth of the table each and scans it all, some 15 ms a batch on 50,000
//   users and more as it grows; through the login index it is about one (docs/decisions.md,
//   Performance, "No scan of the users in an import's batch"). Every statement of a batch reads
//   by an index; one with no index to read scans as before;
// - a batch's commit does not wait for its WAL to reach the disk: a crash may lose the last
//   batches, their lines and their reports together, and the resumed import does them again.
export const BATCH_SETTINGS = sql`SELECT set_config('plan_cache_mode', 'force_custom_plan', true), set_config('enable_seqscan', 'off', true), set_config('synchronous_commit', 'off', true)`;

/**
 * Applies and reports the lines not yet reported, moves the counters, in one transaction. False
 * when the import stopped (its report deleted).
 */
async function writeLines(
  db: AppDeps['database']['db'],
  spec: EngineSpec,
  row: ImportRow,
  batch: Judged[],
  hashes: ReadonlyMap<number, string>,
): Promise<boolean> {
  const first = batch[0].record.line;
  const last = batch[batch.length - 1].record.line;
  return db.transaction(async (tx) => {
    await tx.execute(BATCH_SETTINGS);
    if ((await repo.importStatus(tx, row.id)) !== 'Pending') return false;
    // Lines whose work committed before (a resumed import) are not done again.
    const done = await repo.linesDone(tx, row.id, first, last);
    const todo = done.size ? batch.filter((j) => !done.has(j.record.line)) : batch;
    if (todo.length === 0) return true;
    const applied = await applyLines(spec, tx, todo, hashes, false);
    const written = await repo.insertLines(
      tx,
      row.id,
      applied.map((a) => a.row),
    );
    const counted = applied.filter((a) => written.has(a.row.line));
    const failed = counted.filter((a) => a.row.status === 'failed').length;
    await repo.advance(tx, row.id, {
      succeeded: counted.length - failed,
      failed,
      warnings: counted.reduce((n, a) => n + a.warnings, 0),
      total: counted.length,
    });
    return true;
  });
}
