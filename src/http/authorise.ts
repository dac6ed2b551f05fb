// The authorisation of one call of an operation, whoever makes it: an HTTP request (the caller
// is the session of its token) or a job acting for a caller it names (an import's line). Both go
// through the same statement (src/authz/resolve.ts), the same policy table and the same decision.
import type { SQL } from 'drizzle-orm';
import { scopeFilter } from '../authz/evaluate.ts';
import { loadCaller, resolveCallerAndTarget, type CallerKey, type ResolvePlan } from '../authz/resolve.ts';
import type { Caller } from '../authz/roles.ts';
import { isTargetKind, kindColumns } from '../authz/targets.ts';
import type { Database } from '../db/client.ts';
import { fail } from '../errors/catalogue.ts';
import { isRecord } from '../shared/records.ts';
import type { AnyOperation } from './operation.ts';
import type { FormatLevel } from './format.ts';

type From = 'params' | 'query' | 'body';

/** The parts of a call's input that ids are read from. */
export interface CallValues {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/** A non-empty text value of the call's input, or undefined. */
export function callValue(from: From, field: string, values: CallValues): string | undefined {
  const src = values[from];
  const v = isRecord(src) ? src[field] : undefined;
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export interface Authorised {
  caller: Caller;
  target: Record<string, unknown>;
  parents: Record<string, Record<string, unknown>>;
  second: Record<string, Record<string, unknown> | undefined>;
  scope: SQL | undefined;
  scopeKey: string | undefined;
  extras: Record<string, unknown>;
  listVersion: string | undefined;
}

/**
 * The statement plan of an operation with a target (src/authz/resolve.ts) for an answer at a
 * format level: without the extras where `extrasAt` leaves them out, with only the columns of
 * `rowAt` where it names the level. Levels that read the same get the same plan.
 */
export function planOf(op: AnyOperation, level: FormatLevel = 'full'): ResolvePlan | undefined {
  if (!op.target) return undefined;
  const withExtras = !op.target.extrasAt || op.target.extrasAt.includes(level);
  const columns = op.target.rowAt?.[level];
  const variant = [withExtras ? '' : 'lean', columns ? level : ''].filter(Boolean).join('_');
  return {
    operationId: op.operationId,
    ...(variant ? { variant } : {}),
    target: { kind: op.target.kind, fallback: op.target.fallback, ...(columns ? { columns } : {}) },
    parents: Object.keys(op.target.parents ?? {}).filter(isTargetKind),
    second: Object.entries(op.second ?? {}).map(([name, s]) => ({ name, kind: s.kind })),
    extras: withExtras ? op.target.extras : undefined,
    inputs: Object.keys(op.target.inputs ?? {}),
    listVersion: op.listVersion,
  };
}

/** The plan of each format level (undefined for an operation without a target). */
export function plansByLevel(op: AnyOperation): Record<FormatLevel, ResolvePlan> | undefined {
  if (!op.target) return undefined;
  return { full: planOf(op, 'full')!, small: planOf(op, 'small')!, medium: planOf(op, 'medium')! };
}

/** The caller and, for operations with a target, the authorised resources: one database round trip. */
export async function authorise(
  database: Database,
  now: Date,
  op: AnyOperation,
  plan: ResolvePlan | undefined,
  key: CallerKey,
  values: CallValues,
): Promise<Authorised> {
  if (!op.target || !plan) {
    const { caller, listVersion } = await loadCaller(database, now, key, op.listVersion);
    const scope = op.scope
      ? scopeFilter(caller, op.operationId, op.scope === 'caller' ? {} : kindColumns(op.scope))
      : undefined;
    return {
      caller,
      target: {},
      parents: {},
      second: {},
      scope: scope?.where,
      scopeKey: scope?.key,
      extras: {},
      listVersion,
    };
  }
  const t = op.target;
  const id = callValue(t.from, t.field, values);
  if (id === undefined && !t.fallback) fail('VALIDATION_FAILED', { missing: t.field });
  const seconds = Object.entries(op.second ?? {});
  const ids = {
    target: id,
    parents: Object.values<string | undefined>(t.parents ?? {}).map((field) =>
      field === undefined ? undefined : callValue('params', field, values),
    ),
    second: seconds.map(([, s]) => callValue(s.from, s.field, values)),
    inputs: Object.values(t.inputs ?? {}).map((i) => callValue(i.from, i.field, values)),
  };
  const applies = (name: string, target: Record<string, unknown>) => {
    const s = op.second![name];
    const i = seconds.findIndex(([n]) => n === name);
    return ids.second[i] !== undefined && (!s.when || s.when(target, { body: values.body }));
  };
  const r = await resolveCallerAndTarget(database, now, plan, key, ids, values.body, applies);
  return { ...r, scope: undefined, scopeKey: undefined };
}
