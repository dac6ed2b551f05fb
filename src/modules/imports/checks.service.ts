// The check of a CSV (document 3: "Check a CSV ... {data: Check report}", a dry run; issue 27,
// point 3): every line is read and judged as the import would judge it, with the same code
// (engine.ts) on reads only; nothing is written. The profiles are the company's subscriptions with
// the licences the import would take.
import type { CommandContext } from '../../http/context.ts';
import type { Upload } from '../../http/media.ts';
import { companyProfiles } from '../commerce/commerce.api.ts';
import { openCsv } from './csv.ts';
import type { Action } from './columns.ts';
import { applyLines, judge, type EngineSpec, type Judged } from './engine.ts';
import { flag, planOf, readCsvBody, reqIdOf, type ImportQueryValues } from './imports.service.ts';
import { checkCommandId, commandEnded, recordCheck } from './commands.service.ts';
import type { LineError } from './line-errors.ts';

export type CheckRoute = 'check' | 'checkSync' | 'checkVoice';

/** The errors a check lists (the counts cover every line). */
const MAX_LISTED_ERRORS = 1000;

export async function checkCsv(
  cmd: CommandContext<{ id: string }>,
  route: CheckRoute,
  query: ImportQueryValues,
  upload: Upload | undefined,
) {
  const companyId = cmd.target.id;
  const data = await readCsvBody(upload, cmd.deps.config.importMaxBytes);
  const { plan, delimiter } = await planOf(cmd.db, data, route, query, companyId);
  if (query.commandId) await checkCommandId(cmd.db, query.commandId, companyId);
  const { records } = await openCsv(data, query);
  const profiles = await companyProfiles(cmd.db, companyId);
  const defaultSub = profiles.find((p) => p.isDefault);
  const defaultAction: Action = route === 'checkSync' ? 'sync' : 'upsert';
  const spec: EngineSpec = {
    app: cmd.deps.app,
    callerId: cmd.caller.userId,
    callerRoles: cmd.caller.roles,
    companyId,
    plan,
    defaultAction,
    lenient: flag(query.nostrict),
    defaultProfile: defaultSub?.name,
    log: cmd.log,
    now: () => cmd.now,
  };
  const actions: Record<string, number> = {};
  const errors: { line: number; login: string; error: LineError }[] = [];
  const firstLines = new Map<string, number>();
  let total = 0;
  let valid = 0;
  let created = 0;
  const count = (k: string) => void (actions[k] = (actions[k] ?? 0) + 1);
  const flush = async (batch: Judged[]) => {
    for (const a of await applyLines(spec, cmd.db, batch, new Map(), true)) {
      const e = a.row.entry;
      if (a.row.status === 'failed') {
        if (errors.length < MAX_LISTED_ERRORS && e.error)
          errors.push({ line: a.row.line, login: a.row.login, error: e.error });
        continue;
      }
      valid++;
      count(e.action);
      if (a.deviceAction) count(a.deviceAction);
      if (e._user === 'create') created++;
    }
  };
  let batch: Judged[] = [];
  for await (const chunk of records)
    for (const record of chunk) {
      total++;
      batch.push(judge(spec, record, firstLines));
      if (batch.length >= cmd.deps.config.importBatchLines) {
        await flush(batch);
        batch = [];
      }
    }
  await flush(batch);
  const report = {
    reqId: reqIdOf(companyId, data),
    mode: plan.mode,
    actions,
    columns: plan.positions.filter((c) => c !== undefined).length,
    delimiter,
    ignoredColumns: plan.ignored,
    // Document 3: profiles in the user modes only.
    profiles:
      plan.mode === 'device'
        ? []
        : profiles.map((p) => ({
            name: p.name,
            subscriptionId: p.subscriptionId,
            valid: p.status === 'active',
            assignedBefore: p.assigned,
            assignedAfter: p.assigned + (p.isDefault ? created : 0),
            max: p.max,
          })),
    total,
    valid,
    errors,
  };
  if (query.commandId) {
    const commandId = query.commandId;
    await cmd.db.transaction(async (tx) => {
      await recordCheck(tx, { commandId, companyId, userId: cmd.caller.userId, report, now: cmd.now });
      await commandEnded(tx, { commandId, userId: cmd.caller.userId });
    });
  }
  return report;
}
