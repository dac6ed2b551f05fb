// One round trip per request on the hot path: a single prepared statement checks the token's
// session (not revoked, not expired, user not terminated), loads the caller, the target, the
// parents its path names, the ancestors whose columns its relations read, and any second
// resource the operation acts on, and computes every relation the decision may need. Revocation
// stays immediate on every instance: nothing about the caller is taken from memory but which
// relations to compute (the roles he held last time, checked against those the statement reads).
//
// A job acting for a caller (an import's line) runs the same statement with the caller named by
// his user id instead of a session: the same joins, relations and decision (`CallerKey`).
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { fail } from '../errors/catalogue.ts';
import type { Database } from '../db/client.ts';
import { canRead, decide, decideSecond, relationsNeeded, type Holds } from './evaluate.ts';
import { CALLER_COLUMNS, relationSql, type RelationName, type TargetColumns } from './relations.ts';
import { ROLES, type Caller, type Role } from './roles.ts';
import { ancestry, chainOf, COLUMN_KEYS, linkColumn, TARGETS, type TargetKindName } from './targets.ts';
import { versionOf, type ListFamily } from '../db/list-count.ts';
import { columnsJsonSql, jsonRowReader } from '../db/row-json.ts';

/** Who the statement authorises: the session of a token (HTTP), or a user a job acts for. */
export type CallerKey = { sessionId: string } | { userId: string };

const byOf = (key: CallerKey): 'session' | 'user' => ('sessionId' in key ? 'session' : 'user');
const keyValue = (key: CallerKey): string => ('sessionId' in key ? key.sessionId : key.userId);

const CALLER_COLUMNS_SQL =
  'u.id, u.login_email, u.company_id, u.roles, u.site_id, c.organisation_id, c.is_bp, c.bp_type, c.bp_id';
const CALLER_CTES = {
  session: `WITH caller AS (
  SELECT ${CALLER_COLUMNS_SQL}, s.app_id
  FROM sessions s JOIN users u ON u.id = s.user_id JOIN companies c ON c.id = u.company_id
  WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2::timestamptz AND NOT u.is_terminated AND c.status <> 'terminated')`,
  // A job's caller: the same user and company checks, no session ($2 is read so that its type is known).
  user: `WITH caller AS (
  SELECT ${CALLER_COLUMNS_SQL}, NULL::text AS app_id
  FROM users u JOIN companies c ON c.id = u.company_id
  WHERE u.id = $1 AND $2::timestamptz IS NOT NULL AND NOT u.is_terminated AND c.status <> 'terminated')`,
} as const;

// The caller's columns as key/value pairs of json_build_object: the statements answer one JSON
// value ("a") instead of a column per value. Each column costs the client its name and its value
// decoded on every execution; on the embedded database, which decodes them in JavaScript, that
// was a tenth of a single-resource GET's CPU.
const CALLER_PAIRS = `'c_id', caller.id, 'c_login_email', caller.login_email, 'c_company_id', caller.company_id,
  'c_roles', caller.roles, 'c_site_id', caller.site_id, 'c_organisation_id', caller.organisation_id,
  'c_is_bp', caller.is_bp, 'c_bp_type', caller.bp_type, 'c_bp_id', caller.bp_id, 'c_app_id', caller.app_id`;

/** One loaded resource in the statement's value `a`. */
interface SlotJson {
  found: boolean;
  row: Record<string, unknown> | null;
  [relation: `r_${string}`]: boolean;
}

/** The statement's value `a`: the caller's columns, the list version, and an object per loaded resource (by alias). */
type ResolvedJson = CallerRow & { list_version?: string } & { [alias: string]: SlotJson | undefined };

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

function toCaller(row: CallerRow, key: CallerKey): Caller {
  return {
    userId: row.c_id,
    sessionId: 'sessionId' in key ? key.sessionId : null,
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

const dialect = new PgDialect();

/** The key/value pair of a family's list version (src/db/list-count.ts), as text. */
const listVersionPair = (family: ListFamily) => `'list_version', ${dialect.sqlToQuery(versionOf(family)).sql}::text`;

const callerTexts = new Map<string, string>();

/**
 * The caller of a valid token (or the user a job acts for), or 401 when the session is revoked or
 * expired, or the user or his company terminated; with `listVersion`, the version of that family
 * of lists read in the same statement.
 */
export async function loadCaller(
  database: Database,
  now: Date,
  key: CallerKey,
  listVersion?: ListFamily,
): Promise<{ caller: Caller; listVersion: string | undefined }> {
  const by = byOf(key);
  const name = `auth_caller${by === 'user' ? '_u' : ''}${listVersion ? `_v_${listVersion}` : ''}`;
  let text = callerTexts.get(name);
  if (!text) {
    const pairs = listVersion ? `${CALLER_PAIRS}, ${listVersionPair(listVersion)}` : CALLER_PAIRS;
    text = `${CALLER_CTES[by]} SELECT json_build_object(${pairs}) AS a FROM caller`;
    callerTexts.set(name, text);
  }
  const rows = await database.prepared<{ a: CallerRow & { list_version?: string } }>(name, text, [keyValue(key), now]);
  const a = rows[0]?.a;
  if (!a) fail('TOKEN_REVOKED');
  return { caller: toCaller(a, key), listVersion: a.list_version ?? undefined };
}

/** Caller fields a target id may default to when the request names none. */
const FALLBACK_COLUMNS = { companyId: 'caller.company_id' } as const;
export type TargetFallback = keyof typeof FALLBACK_COLUMNS;

/** What the statement of one operation loads: the target, the parents its path names, its second resources. */
export interface ResolvePlan {
  operationId: string;
  /** A second statement of the operation (`lean`: without its extras), named apart. */
  variant?: string;
  /** `columns`: the target's columns the answer reads (property names), the whole row without. */
  target: { kind: TargetKindName; fallback?: TargetFallback; columns?: readonly string[] };
  /** The kinds the path names above the target, nearest first (devices/{id} under subscribers/{id} under pbxs/{id}). */
  parents: TargetKindName[];
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

/** One loaded resource of the statement: its alias and kind (its object in `a` holds `found`, `row` and `r_<relation>`). */
interface Slot {
  alias: string;
  kind: TargetKindName;
  /** The row as the code reads it (camelCase, typed by its columns) from its JSON form. */
  read: (json: Record<string, unknown>) => Record<string, unknown>;
}

interface TargetStatement {
  name: string;
  text: string;
  /** The path's parents from the top down, then the target, then the second resources. */
  parents: Slot[];
  target: Slot;
  second: Slot[];
  extras: string[];
}

const statements = new Map<string, TargetStatement>();

const PLAIN_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * The FROM clause of one statement: the loaded resources and the ancestors whose columns their
 * relations read. An ancestor the path already loads is not joined twice (a phone number's
 * system, named by its path, is the system whose company its relations read).
 */
class Joins {
  readonly list: string[] = [];
  /** `<alias>^<depth>` -> the alias of that ancestor of that resource. */
  private readonly ancestors = new Map<string, string>();

  add(alias: string, kind: TargetKindName, on: string): void {
    this.list.push(`LEFT JOIN ${TARGETS[kind].tableName} ${alias} ON ${on}`);
  }

  /** Records that the ancestor at `depth` of `alias` is the resource already joined as `as`. */
  known(alias: string, depth: number, as: string): void {
    this.ancestors.set(`${alias}^${depth}`, as);
  }

  /** The alias of the ancestor `depth` levels above the resource `alias` of `kind`, joined by primary key when needed. */
  ancestor(alias: string, kind: TargetKindName, depth: number): string {
    if (depth === 0) return alias;
    const key = `${alias}^${depth}`;
    const known = this.ancestors.get(key);
    if (known) return known;
    const chain = chainOf(kind);
    const below = this.ancestor(alias, kind, depth - 1);
    const link = TARGETS[chain[depth - 1]].parent!.column;
    const as = `${alias}_${depth}`;
    this.add(as, chain[depth], `${as}.id = ${below}."${link.name}"`);
    this.ancestors.set(key, as);
    return as;
  }

  /** The columns the relations of a resource read, on itself or on its ancestors. */
  columns(alias: string, kind: TargetKindName): TargetColumns {
    const out: TargetColumns = {};
    const ancestors = ancestry(kind);
    for (const key of COLUMN_KEYS) {
      const found = ancestors[key];
      if (found) out[key] = sql.raw(`${this.ancestor(alias, kind, found.depth)}."${found.column.name}"`);
    }
    return out;
  }
}

/** The JSON of a loaded row: the whole row, or only the named columns (property names of its table). */
const rowJson = (alias: string, kind: TargetKindName, columns: readonly string[] | undefined): string =>
  columns ? columnsJsonSql(TARGETS[kind].table, alias, columns) : `row_to_json(${alias})`;

function slotPair(
  alias: string,
  kind: TargetKindName,
  needed: Map<RelationName, Set<Role>>,
  joins: Joins,
  columns?: readonly string[],
): string {
  const cols = joins.columns(alias, kind);
  // The row travels as one JSON value: decoding a hundred columns one by one costs the embedded
  // database (which decodes each field in JavaScript) several times the whole statement.
  // row_to_json writes the JSON text at once; to_jsonb builds a binary document first (sorted,
  // deduplicated keys) that json_build_object then writes out again: about a tenth of the
  // statement's time on the database for a wide row.
  // A few columns (`columns`, the answer of a small format level) are built as an object of their own.
  const pairs = [`'found', ${alias}.id IS NOT NULL`, `'row', ${rowJson(alias, kind, columns)}`];
  for (const [r, roles] of needed) {
    const guard: SQL = r === 'any' ? sql`TRUE` : relationSql(r, CALLER_COLUMNS, cols);
    // Only callers holding a role whose grant names the relation pay for its subqueries.
    const rolesArray = sql.raw(`ARRAY[${[...roles].map((x) => `'${x}'`).join(',')}]::text[]`);
    const q = dialect.sqlToQuery(
      sql`${sql.raw(`'r_${r}'`)}, CASE WHEN caller.roles && ${rolesArray} THEN ${guard} ELSE FALSE END`,
    );
    // The statement's parameters are the caller's key, the time and the ids only.
    if (q.params.length) throw new Error(`relation ${r} binds values; it must read the caller from the CTE`);
    pairs.push(q.sql);
  }
  // One object per resource: json_build_object takes at most 100 arguments (50 pairs), and a
  // resource has at most some forty relations.
  if (pairs.length > 50)
    throw new Error(`${kind}: ${pairs.length} values in one object, more than json_build_object takes`);
  return `'${alias}', json_build_object(${pairs.join(', ')})`;
}

const slotOf = (alias: string, kind: TargetKindName, columns?: readonly string[]): Slot => ({
  alias,
  kind,
  read: jsonRowReader(TARGETS[kind].table, columns),
});

/** The extras of a target reference as select items `x_<name>`; they read the target `t` and bind no values. */
function extraSelect(operationId: string, extras: Record<string, SQL>): string[] {
  return Object.entries(extras).map(([name, expr]) => {
    if (!PLAIN_NAME.test(name)) throw new Error(`${operationId}: extra ${name} is not a plain name`);
    const q = dialect.sqlToQuery(sql`(${expr}) AS "x_${sql.raw(name)}"`);
    if (q.params.length)
      throw new Error(`${operationId}: extra ${name} binds values; it must read the target row t only`);
    return q.sql;
  });
}

/**
 * The roles a caller held the last time one of his statements ran, by session (or by user for a
 * job): his next statement computes only the relations of the grants they hold. Each statement
 * reads the caller's roles again; when they are no longer these, its relations may be short of
 * some, and it runs once more with every relation (resolveCallerAndTarget). A hint, never a
 * decision: a session revoked or a user terminated is refused by the statement itself. Bounded:
 * the oldest hint goes first.
 */
interface RoleSet {
  roles: Role[];
  /** The set as a bit mask over ROLES, base 36: compared on every request, and in the statement's name. */
  key: string;
}
const roleHints = new Map<string, RoleSet>();
const MAX_ROLE_HINTS = 10_000;

const roleKey = (roles: readonly Role[]): string =>
  ROLES.reduce((m, r, i) => (roles.includes(r) ? m + 2 ** i : m), 0).toString(36);

function rememberRoles(key: string, roles: RoleSet): void {
  roleHints.delete(key);
  if (roleHints.size >= MAX_ROLE_HINTS) roleHints.delete(roleHints.keys().next().value!);
  roleHints.set(key, roles);
}

/**
 * The statement of an operation (with `roles`: for a caller holding exactly these). Parameters:
 * $1 the caller's key, $2 the time, $3 the target's id, then the ids of the path's parents
 * (nearest first), of the second resources, and the inputs.
 * The path's parents are joined from the top down, each under the one above it, and the target
 * under the nearest: a child of another parent is not found at its own level (404 naming it).
 */
function targetStatement(plan: ResolvePlan, by: 'session' | 'user', roles: RoleSet | undefined): TargetStatement {
  const variant = plan.variant ? `_${plan.variant}` : '';
  const name = `target${by === 'user' ? '_u' : ''}_${plan.operationId}${variant}${roles ? `_r${roles.key}` : ''}`;
  const cached = statements.get(name);
  if (cached) return cached;
  const needed = relationsNeeded(plan.operationId, plan.target.kind, plan.parents, plan.second, roles?.roles);
  const joins = new Joins();
  // Level 0 is the target, level i the i-th parent the path names.
  const kinds = [plan.target.kind, ...plan.parents];
  const aliasOf = (level: number) => (level === 0 ? 't' : `p${level}`);
  const link = (level: number) => {
    const column = linkColumn(kinds[level], kinds[level + 1]);
    if (!column) throw new Error(`${plan.operationId}: a ${kinds[level]} has no ${kinds[level + 1]} parent`);
    return `${aliasOf(level)}."${column.name}" = ${aliasOf(level + 1)}.id`;
  };
  for (let level = plan.parents.length; level >= 1; level--) {
    const on = [`p${level}.id = $${3 + level}::text`, ...(level < plan.parents.length ? [link(level)] : [])];
    joins.add(aliasOf(level), kinds[level], on.join(' AND '));
  }
  const idExpr = plan.target.fallback ? `COALESCE($3::text, ${FALLBACK_COLUMNS[plan.target.fallback]})` : '$3::text';
  joins.add('t', plan.target.kind, [`t.id = ${idExpr}`, ...(plan.parents.length ? [link(0)] : [])].join(' AND '));
  // A loaded level whose link to the one above is its chain parent has that level as its ancestor.
  for (let level = 0; level < plan.parents.length; level++)
    for (let up = level + 1; up <= plan.parents.length; up++) {
      if (TARGETS[kinds[up - 1]].parent?.kind !== kinds[up]) break;
      joins.known(aliasOf(level), up - level, aliasOf(up));
    }
  const firstSecond = 4 + plan.parents.length;
  plan.second.forEach((s, i) => joins.add(`s${i}`, s.kind, `s${i}.id = $${firstSecond + i}::text`));

  const pairs: string[] = [CALLER_PAIRS];
  const parents: Slot[] = [];
  for (let level = plan.parents.length; level >= 1; level--) {
    pairs.push(slotPair(aliasOf(level), kinds[level], needed.parents[level - 1], joins));
    parents.push(slotOf(aliasOf(level), kinds[level]));
  }
  pairs.push(slotPair('t', plan.target.kind, needed.target, joins, plan.target.columns));
  const second = plan.second.map((s, i) => {
    pairs.push(slotPair(`s${i}`, s.kind, needed.second[i], joins));
    return slotOf(`s${i}`, s.kind);
  });
  if (plan.listVersion) pairs.push(listVersionPair(plan.listVersion));
  // The extras keep a column each: their values come to the handler typed as their own SQL types.
  const selects = [`json_build_object(${pairs.join(', ')}) AS a`, ...extraSelect(plan.operationId, plan.extras ?? {})];
  // The inputs of the extras: one row of text parameters after the ids, as the CTE `input`.
  const inputs = plan.inputs ?? [];
  inputs.forEach((input) => {
    if (!PLAIN_NAME.test(input)) throw new Error(`${plan.operationId}: input ${input} is not a plain name`);
  });
  const firstInput = firstSecond + plan.second.length;
  const inputCte = inputs.length
    ? `, input AS (SELECT ${inputs.map((input, i) => `$${firstInput + i}::text AS "${input}"`).join(', ')})`
    : '';
  const text = `${CALLER_CTES[by]}${inputCte}
SELECT ${selects.join(', ')}
FROM caller ${inputs.length ? 'CROSS JOIN input ' : ''}${joins.list.join(' ')}`;
  const st = {
    name,
    text,
    parents,
    target: slotOf('t', plan.target.kind, plan.target.columns),
    second,
    extras: Object.keys(plan.extras ?? {}),
  };
  statements.set(name, st);
  return st;
}

export interface Resolved {
  caller: Caller;
  target: Record<string, unknown>;
  /** The rows of the parents the path names, by kind. */
  parents: Record<string, Record<string, unknown>>;
  second: Record<string, Record<string, unknown> | undefined>;
  /** The values of the plan's extras, by name. */
  extras: Record<string, unknown>;
  listVersion: string | undefined;
}

export interface ResolveIds {
  target: string | undefined;
  /** The ids of the path's parents, in the plan's order (nearest first). */
  parents: (string | undefined)[];
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
  database: Database,
  now: Date,
  plan: ResolvePlan,
  key: CallerKey,
  ids: ResolveIds,
  body: unknown,
  secondApplies: (name: string, target: Record<string, unknown>) => boolean,
): Promise<Resolved> {
  const by = byOf(key);
  const hintKey = `${by}:${keyValue(key)}`;
  const hinted = roleHints.get(hintKey);
  let st = targetStatement(plan, by, hinted);
  const params: unknown[] = [
    keyValue(key),
    now,
    ids.target ?? null,
    ...plan.parents.map((_, i) => ids.parents[i] ?? null),
    ...ids.second.map((x) => x ?? null),
    ...(plan.inputs ?? []).map((_, i) => ids.inputs?.[i] ?? null),
  ];
  const run = () => database.prepared<Record<string, unknown> & { a: ResolvedJson }>(st.name, st.text, params);
  let row = (await run())[0];
  if (!row) fail('TOKEN_REVOKED');
  // The relations computed are those of the roles hinted: exact only if the caller still holds
  // exactly these. Otherwise (his roles changed since) once more, with every relation.
  const roles = row.a.c_roles;
  const held = roleKey(roles);
  if (held !== hinted?.key) {
    rememberRoles(hintKey, { roles: ROLES.filter((r) => roles.includes(r)), key: held });
    if (hinted) {
      st = targetStatement(plan, by, undefined);
      row = (await run())[0];
      if (!row) fail('TOKEN_REVOKED');
    }
  }
  const a = row.a;
  const caller = toCaller(a, key);
  const json = (slot: Slot): SlotJson => a[slot.alias]!;
  const read = (slot: Slot) => slot.read(json(slot).row!);
  const holdsOf =
    (slot: Slot): Holds =>
    (r) =>
      json(slot)[`r_${r}`] === true;
  // From the top of the path down: the first level that is missing (or under another parent) is
  // the 404. It names that level only to a caller who may read the level above it; to another it
  // names the highest level he may not read, as if that one did not exist, so that nobody learns
  // from a 404 that a resource he may not know exists (a PBX of another company) is there.
  const levels = [...st.parents, st.target];
  const levelIds = [...[...ids.parents.slice(0, st.parents.length)].reverse(), ids.target];
  const missing = levels.findIndex((l) => !json(l).found);
  if (missing >= 0) {
    let at = missing;
    while (at > 0 && !canRead(caller, levels[at - 1].kind, holdsOf(levels[at - 1]))) at--;
    fail('NOT_FOUND', { target: levels[at].kind, id: levelIds[at] });
  }
  const target = read(st.target);
  const parentViews = st.parents.map((p) => ({ kind: p.kind, holds: holdsOf(p) }));
  decide(caller, plan.operationId, st.target.kind, holdsOf(st.target), target, body, parentViews);
  const second: Resolved['second'] = {};
  plan.second.forEach((s, i) => {
    const sl = st.second[i];
    if (!secondApplies(s.name, target)) return;
    if (!json(sl).found) fail('NOT_FOUND', { target: s.kind, id: ids.second[i] });
    second[s.name] = read(sl);
    decideSecond(caller, plan.operationId, s.name, s.kind, holdsOf(sl), ids.second[i]);
  });
  const extras: Record<string, unknown> = {};
  for (const extra of st.extras) extras[extra] = row[`x_${extra}`];
  const parents: Resolved['parents'] = {};
  for (const p of st.parents) parents[p.kind] = read(p);
  return {
    caller,
    target,
    parents,
    second,
    extras,
    listVersion: plan.listVersion ? a.list_version : undefined,
  };
}
