// The results kept per commandId (document 3: "Get the last check result for a commandId", "Get
// the last import result for a commandId", "Create a report for a commandId when no other
// operation runs"; document 1, Events, Command ended; issue 27, point 5).
//
// A commandId is chosen by the client and names one row of import_commands, whose company is the
// company of the check or import that recorded it: that company is what authorises reading it
// (imports.module.ts, kind importCommand). Each kind of result is kept apart: the last check
// report, the last import (its reqId) and the last report of createReportForCommand; a later
// result of one kind replaces the earlier one of that kind only. A commandId already recorded for
// another company is refused with 409 CONFLICT (docs: /work/decisions-cmds.md), so that no company
// overwrites another's results.
import { eq, sql } from 'drizzle-orm';
import type { Static } from 'typebox';
import { Value } from 'typebox/value';
import type { Executor } from '../../db/client.ts';
import type { CommandContext } from '../../http/context.ts';
import { fail } from '../../errors/catalogue.ts';
import { emit } from '../../events/outbox.ts';
import { commandEnded as commandEndedStanza } from '../../events/stanzas.ts';
import { userJid } from '../admin/users/users.api.ts';
import { CheckReport, type CommandReportBody } from './imports.schemas.ts';
import { importCommands, imports } from './imports.tables.ts';
import { toSummary } from './summaries.ts';

type CommandRow = typeof importCommands.$inferSelect;
type CompanyRow = { id: string };
export type CheckReportValue = Static<typeof CheckReport>;

/** Document 3: `{status: success, report: Check report}`; 404900 when no check was recorded under the commandId. */
export async function checkReportOf(target: CommandRow) {
  const report = target.checkReport;
  if (!report || !Value.Check(CheckReport, report)) return fail('COMMAND_REPORT_NOT_FOUND', { commandId: target.id });
  return { status: 'success', report };
}

/**
 * Document 3: `{status: success, report: summary}`, the Import request summary of the last import
 * started with the commandId; 404900 when none was, or when its report has been deleted since.
 */
export async function importReportOf(db: Executor, target: CommandRow) {
  if (!target.reqId) return fail('COMMAND_REPORT_NOT_FOUND', { commandId: target.id });
  const [row] = await db.select().from(imports).where(eq(imports.id, target.reqId));
  if (!row || row.companyId !== target.companyId) return fail('COMMAND_REPORT_NOT_FOUND', { commandId: target.id });
  return { status: 'success', report: toSummary(row) };
}

interface Recording {
  commandId: string;
  companyId: string;
  /** The administrator who asked: command_ended goes to him. */
  userId: string;
  now: Date;
}

/**
 * Writes one kind of result under the commandId (insert, or update of the row of the same
 * company), in one statement. A row of another company is left as it is: 409 CONFLICT.
 */
async function record(
  exec: Executor,
  r: Recording,
  set: Partial<Pick<CommandRow, 'checkReport' | 'reqId' | 'report'>>,
): Promise<void> {
  const rows = await exec
    .insert(importCommands)
    .values({ id: r.commandId, companyId: r.companyId, userId: r.userId, updatedAt: r.now, ...set })
    .onConflictDoUpdate({
      target: importCommands.id,
      set: { userId: r.userId, updatedAt: r.now, ...set },
      setWhere: sql`${importCommands.companyId} = ${r.companyId}`,
    })
    .returning({ id: importCommands.id });
  if (rows.length === 0)
    fail('CONFLICT', { commandId: r.commandId, reason: 'this commandId is used by another company' });
}

/**
 * For the engine, before the work starts: 409 CONFLICT when the commandId is already another
 * company's, so that a check or an import is refused at once rather than failing to record its
 * result at the end (recordCheck and recordImport refuse it too, in their own statement).
 */
export async function checkCommandId(exec: Executor, commandId: string, companyId: string): Promise<void> {
  const [row] = await exec
    .select({ companyId: importCommands.companyId })
    .from(importCommands)
    .where(eq(importCommands.id, commandId));
  if (row && row.companyId !== companyId)
    fail('CONFLICT', { commandId, reason: 'this commandId is used by another company' });
}

/** For the engine: keeps the report of a check started with a commandId (its last one). */
export async function recordCheck(exec: Executor, r: Recording & { report: CheckReportValue }): Promise<void> {
  // Stored as the answer gives it: fields beyond the schema's (none today) are not kept.
  const report: Record<string, unknown> = { ...r.report };
  Value.Clean(CheckReport, report);
  await record(exec, r, { checkReport: report });
}

/** For the engine: keeps the import request started with a commandId (its last one). */
export async function recordImport(exec: Executor, r: Recording & { reqId: string }): Promise<void> {
  await record(exec, r, { reqId: r.reqId });
}

/**
 * Document 1, Events, Command ended: the `command_ended` message to the administrator who asked,
 * through the outbox in the caller's transaction (sent once it commits). An administrator
 * without an XMPP address (none: every user gets one on insert) is told nothing.
 */
export async function commandEnded(exec: Executor, e: { commandId: string; userId: string }): Promise<void> {
  const user = await userJid(exec, e.userId);
  if (!user?.jidIm) return;
  await emit(exec, [user.jidIm], commandEndedStanza(e.commandId));
}

/**
 * createReportForCommand: records `{details, status}` under the commandId for the target company
 * and the caller, and sends him command_ended, in one transaction. Answers `{status, report:
 * {details}}` with the status recorded (document 3).
 */
export async function createReport(
  cmd: CommandContext<CompanyRow>,
  commandId: string,
  body: Static<typeof CommandReportBody>,
) {
  const userId = cmd.caller.userId;
  await cmd.db.transaction(async (tx) => {
    await record(
      tx,
      { commandId, companyId: cmd.target.id, userId, now: cmd.now },
      { report: { details: body.details, status: body.status } },
    );
    await commandEnded(tx, { commandId, userId });
  });
  return { status: body.status, report: { details: body.details } };
}
