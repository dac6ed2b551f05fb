// One round trip per request on the hot path: a single prepared statement checks the token's
// session (not revoked, not expired, user not terminated), loads the caller, the target, the
// target's parent and any second resource the operation acts on, and computes every relation
// the decision may need. Revocation stays immediate on every instance, with no cache in memory.
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { fail } from '../errors/catalogue.ts';
import type { AppDeps } from '../http/context.ts';
import type { VerifiedToken } from '../shared/tokens.ts';
import { decide, decideSecond, relationsNeeded, type Holds } from './evaluate.ts';
import { CALLER_COLUMNS, relationSql, type RelationName } from './relations.ts';
import type { Caller, Role } from './roles.ts';
import { TARGETS, type TargetKind, type TargetKindName } from './targets.ts';
import { versionOf, type ListFamily } from '../db/list-count.ts';
import { jsonRowReader } from '../db/row-json.ts';

const CALLER_CTE = `WITH caller AS (
  SELECT u.id, u.login_email, u.company_id, u.roles, u.site_id, c.organisation_id, c.is_bp, c.bp_type, c.bp_id, s.app_id
  FROM sessions s JOIN users u ON u.id = s.user_id JOIN companies c ON c.id = u.company_id
  WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2::timestamptz AND NOT u.is_terminated AND c.status <> 'terminated')`;

// The caller's columns as key/value pairs of json_build_object: the statements answer one JSON
// value ("a") instead of a column per value. Each column costs the client its name and its value
// decoded on every execution; on the embedded database, which decodes them in JavaScript, that
// was a tenth of a single-resource GET's CPU.
const CALLER_PAIRS = `'c_id', caller.id, 'c_login_email', caller.login_email, 'c_company_id', caller.company_id,
  'c_roles', caller.roles, 'c_site_id', caller.site_id, 'c_organisation_id', caller.organisation_id,
  'c_is_bp', caller.is_bp, 'c_bp_type', caller.bp_type, 'c_bp_id', caller.bp_id, 'c_app_id', caller.app_id`;

/** The statement's value `a`: the caller's columns, the list version, and an object per loaded resource (by alias). */
type ResolvedJson = CallerRow & { list_version?: string } & {
  [alias: string]:
    { found: boolean; row: Record<string, unknown> | null; [relation: `r_${string}`]: boolean } | undefined;
};

interface CallerRow {
  c_id: string;
  c_login_email: string;
  c_company_id: string;
  c_roles: Role[];
  c_site_id: string | null;
  c_organisation_id: string | null;
  c_is_bp: boolean;
  c_bp_type: string | null;
  c_bp_id: string | null;
  c_app_id: string | null;
}

function toCaller(row: CallerRow, sessionId: string): Caller {
  return {
    userId: row.c_id,
    sessionId,
    appId: row.c_app_id,
    loginEmail: row.c_login_email,
    companyId: row.c_company_id,
    roles: row.c_roles,
    siteId: row.c_site_id,
    organisationId: row.c_organisation_id,
    companyIsBP: row.c_is_bp,
    companyBpType: row.c_bp_type,
    companyBpId: row.c_bp_id,
  };
}

/** The key/value pair of a family's list version (src/db/list-count.ts), as text. */
const listVersionPair = (family: ListFamily) => `'list_version', ${dialect.sqlToQuery(versionOf(family)).sql}::text`;

const CALLER_TEXT = `${CALLER_CTE} SELECT json_build_object(${CALLER_PAIRS}) AS a FROM caller`;
const callerTexts = new Map<ListFamily, string>();

/**
 * The caller of a valid token, or 401 when its session is revoked or expired; with `listVersion`,
 * the version of that family of lists read in the same statement.
 */
export async function loadCaller(
  deps: AppDeps,
  token: VerifiedToken,
  listVersion?: ListFamily,
): Promise<{ caller: Caller; listVersion: string | undefined }> {
  let name = 'auth_caller';
  let text = CALLER_TEXT;
  if (listVersion) {
    name = `auth_caller_v_${listVersion}`;
    text =
      callerTexts.get(listVersion) ??
      `${CALLER_CTE} SELECT json_build_object(${CALLER_PAIRS}, ${listVersionPair(listVersion)}) AS a FROM caller`;
    callerTexts.set(listVersion, text);
  }
  const rows = await deps.database.prepared<{ a: CallerRow & { list_version?: string } }>(name, text, [
    token.sessionId,
    deps.now().toISOString(),
  ]);
  const a = rows[0]?.a;
  if (!a) fail('TOKEN_REVOKED');
  return { caller: toCaller(a, token.sessionId), listVersion: a.list_version ?? undefined };
}

/** Caller fields a target id may default to when the request names none. */
const FALLBACK_COLUMNS = { companyId: 'caller.company_id' } as const;
export type TargetFallback = keyof typeof FALLBACK_COLUMNS;

/** What the statement of one operation loads: the target, its parent, its second resources. */
export interface ResolvePlan {
  operationId: string;
  target: { kind: TargetKindName; fallback?: TargetFallback };
  parent?: { kind: TargetKindName };
  second: { name: string; kind: TargetKindName }[];
  /** Data of the answer read in the same statement (a company's subscriptions...), by name. */
  extras?: Record<string, SQL>;
  /** Names of the request values the extras read (extraInput), bound after the ids. */
  inputs?: string[];
  /** A family of lists whose version the statement reads too (`Resolved.listVersion`). */
  listVersion?: ListFamily;
}

/** A request value of the plan's inputs, as an extra reads it (text, NULL when the request has none). */
export const extraInput = (name: string): SQL => sql.raw(`input."${name}"`);

/** One loaded resource of the statement: its alias and columns (its object in `a` holds `found`, `row` and `r_<relation>`). */
interface Slot {
  alias: string;
  kind: TargetKindName;
  /** The row as the code reads it (camelCase, typed by its columns) from its JSON form. */
  read: (json: Record<string, unknown>) => Record<string, unknown>;
}

interface TargetStatement {
  name: string;
  text: string;
  slots: Slot[];
  extras: string[];
}

const dialect = new PgDialect();
const statements = new Map<string, TargetStatement>();

function slotSql(
  alias: string,
  kindName: TargetKindName,
  needed: Map<RelationName, Set<Role>>,
): { slot: Slot; pair: string } {
  const kind: TargetKind = TARGETS[kindName];
  const col = (c: { name: string } | undefined) => c && sql.raw(`${alias}."${c.name}"`);
  const cols = {
    company: col(kind.cols.company),
    site: col(kind.cols.site),
    owner: col(kind.cols.owner),
    organisation: col(kind.cols.organisation),
    companyBp: col(kind.cols.companyBp),
    companyOrganisation: col(kind.cols.companyOrganisation),
  };
  // The row travels as one JSON value: decoding a hundred columns one by one costs the embedded
  // database (which decodes each field in JavaScript) several times the whole statement.
  const pairs = [`'found', ${alias}.id IS NOT NULL`, `'row', to_jsonb(${alias})`];
  for (const [r, roles] of needed) {
    const guard: SQL = r === 'any' ? sql`TRUE` : relationSql(r, CALLER_COLUMNS, cols);
    // Only callers holding a role whose grant names the relation pay for its subqueries.
    const rolesArray = sql.raw(`ARRAY[${[...roles].map((x) => `'${x}'`).join(',')}]::text[]`);
    const q = dialect.sqlToQuery(
      sql`${sql.raw(`'r_${r}'`)}, CASE WHEN caller.roles && ${rolesArray} THEN ${guard} ELSE FALSE END`,
    );
    // The statement's parameters are the session, the time and the ids only.
    if (q.params.length) throw new Error(`relation ${r} binds values; it must read the caller from the CTE`);
    pairs.push(q.sql);
  }
  // One object per resource: json_build_object takes at most 100 arguments (50 pairs), and a
  // resource has at most some forty relations.
  if (pairs.length > 50)
    throw new Error(`${kindName}: ${pairs.length} values in one object, more than json_build_object takes`);
  return {
    slot: { alias, kind: kindName, read: jsonRowReader(kind.table) },
    pair: `'${alias}', json_build_object(${pairs.join(', ')})`,
  };
}

/** The extras of a target reference as select items `x_<name>`; they read the target `t` and bind no values. */
function extraSelect(operationId: string, extras: Record<string, SQL>): string[] {
  return Object.entries(extras).map(([name, expr]) => {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw new Error(`${operationId}: extra ${name} is not a plain name`);
    const q = dialect.sqlToQuery(sql`(${expr}) AS "x_${sql.raw(name)}"`);
    if (q.params.length)
      throw new Error(`${operationId}: extra ${name} binds values; it must read the target row t only`);
    return q.sql;
  });
}

function targetStatement(plan: ResolvePlan): TargetStatement {
  const cached = statements.get(plan.operationId);
  if (cached) return cached;
  const needed = relationsNeeded(plan.operationId, plan.target.kind, plan.parent?.kind, plan.second);
  const slots: Slot[] = [];
  const pairs: string[] = [CALLER_PAIRS];
  const joins: string[] = [];
  const add = (alias: string, kind: TargetKindName, rel: Map<RelationName, Set<Role>>, on: string) => {
    const { slot, pair } = slotSql(alias, kind, rel);
    slots.push(slot);
    pairs.push(pair);
    joins.push(`LEFT JOIN ${TARGETS[kind].tableName} ${alias} ON ${on}`);
  };
  const idExpr = plan.target.fallback ? `COALESCE($3::text, ${FALLBACK_COLUMNS[plan.target.fallback]})` : '$3::text';
  if (plan.parent) {
    const link = (TARGETS[plan.target.kind] as TargetKind).parents?.[plan.parent.kind];
    if (!link)
      throw new Error(
        `${plan.operationId}: a ${plan.target.kind} has no ${plan.parent.kind} parent (TARGETS.${plan.target.kind}.parents)`,
      );
    add('p', plan.parent.kind, needed.parent, 'p.id = $4::text');
    add('t', plan.target.kind, needed.target, `t.id = ${idExpr} AND t."${link.name}" = p.id`);
  } else {
    add('t', plan.target.kind, needed.target, `t.id = ${idExpr}`);
  }
  // Parameters: $1 session, $2 time, $3 target, then the parent's and the second resources' ids.
  const firstSecond = plan.parent ? 5 : 4;
  plan.second.forEach((s, i) => add(`s${i}`, s.kind, needed.second[i]!, `s${i}.id = $${firstSecond + i}::text`));
  if (plan.listVersion) pairs.push(listVersionPair(plan.listVersion));
  // The extras keep a column each: their values come to the handler typed as their own SQL types.
  const selects = [`json_build_object(${pairs.join(', ')}) AS a`, ...extraSelect(plan.operationId, plan.extras ?? {})];
  // The inputs of the extras: one row of text parameters after the ids, as the CTE `input`.
  const inputs = plan.inputs ?? [];
  inputs.forEach((name) => {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name))
      throw new Error(`${plan.operationId}: input ${name} is not a plain name`);
  });
  const firstInput = firstSecond + plan.second.length;
  const inputCte = inputs.length
    ? `, input AS (SELECT ${inputs.map((name, i) => `$${firstInput + i}::text AS "${name}"`).join(', ')})`
    : '';
  const text = `${CALLER_CTE}${inputCte}
SELECT ${selects.join(', ')}
FROM caller ${inputs.length ? 'CROSS JOIN input ' : ''}${joins.join(' ')}`;
  const st = { name: `target_${plan.operationId}`, text, slots, extras: Object.keys(plan.extras ?? {}) };
  statements.set(plan.operationId, st);
  return st;
}

export interface Resolved {
  caller: Caller;
  target: Record<string, unknown>;
  parent: Record<string, unknown> | undefined;
  second: Record<string, Record<string, unknown> | undefined>;
  /** The values of the plan's extras, by name. */
  extras: Record<string, unknown>;
  listVersion: string | undefined;
}

export interface ResolveIds {
  target: string | undefined;
  parent?: string;
  second: (string | undefined)[];
  /** The values of the plan's inputs, in their order. */
  inputs?: (string | undefined)[];
}

/**
 * Authenticates and authorises in one statement. Returns the caller and the loaded rows (plain
 * columns, camelCase) when the caller may act; throws 401, 404 or 403 otherwise. `secondApplies`
 * tells, once the target is loaded, whether each second resource is acted on at all.
 */
export async function resolveCallerAndTarget(
  deps: AppDeps,
  plan: ResolvePlan,
  token: VerifiedToken,
  ids: ResolveIds,
  body: unknown,
  secondApplies: (name: string, target: Record<string, unknown>) => boolean,
): Promise<Resolved> {
  const st = targetStatement(plan);
  const params: unknown[] = [
    token.sessionId,
    deps.now().toISOString(),
    ids.target ?? null,
    ...(plan.parent ? [ids.parent ?? null] : []),
    ...ids.second.map((x) => x ?? null),
    ...(plan.inputs ?? []).map((_, i) => ids.inputs?.[i] ?? null),
  ];
  const rows = await deps.database.prepared<Record<string, unknown> & { a: ResolvedJson }>(st.name, st.text, params);
  const row = rows[0];
  if (!row) fail('TOKEN_REVOKED');
  const a = row.a;
  const caller = toCaller(a, token.sessionId);
  const read = (slot: Slot) => slot.read(a[slot.alias]!.row!);
  const holdsOf =
    (slot: Slot): Holds =>
    (r) =>
      a[slot.alias]![`r_${r}`] === true;
  const slot = (alias: string) => st.slots.find((s) => s.alias === alias)!;
  const t = slot('t');
  const p = plan.parent ? slot('p') : undefined;
  if (p && !a.p!.found) fail('NOT_FOUND', { target: p.kind, id: ids.parent });
  if (!a.t!.found) fail('NOT_FOUND', { target: t.kind, id: ids.target });
  const target = read(t);
  decide(caller, plan.operationId, t.kind, holdsOf(t), target, body, p && { kind: p.kind, holds: holdsOf(p) });
  const second: Resolved['second'] = {};
  plan.second.forEach((s, i) => {
    const sl = slot(`s${i}`);
    if (!secondApplies(s.name, target)) return;
    if (!a[sl.alias]!.found) fail('NOT_FOUND', { target: s.kind, id: ids.second[i] });
    second[s.name] = read(sl);
    decideSecond(caller, plan.operationId, s.name, s.kind, holdsOf(sl), ids.second[i]);
  });
  const extras: Record<string, unknown> = {};
  for (const name of st.extras) extras[name] = row[`x_${name}`];
  return {
    caller,
    target,
    parent: p && read(p),
    second,
    extras,
    listVersion: plan.listVersion ? a.list_version : undefined,
  };
}
