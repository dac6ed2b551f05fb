// One round trip per request on the hot path: a single prepared statement checks the token's
// session (not revoked, not expired, user not terminated), loads the caller and the target, and
// computes every relation the operation's decision may need. Revocation stays immediate on every
// instance, with no cache in process memory.
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { fail } from '../errors/catalogue.ts';
import type { AppDeps } from '../http/context.ts';
import type { VerifiedToken } from '../modules/authentication/tokens.ts';
import { decide, relationsOf } from './evaluate.ts';
import { CALLER_COLUMNS, relationSql, type RelationName } from './relations.ts';
import type { Caller, Role } from './roles.ts';
import { TARGETS, type TargetKind, type TargetKindName } from './targets.ts';

const CALLER_CTE = `WITH caller AS (
  SELECT u.id, u.login_email, u.company_id, u.roles, u.site_id, c.organisation_id, c.is_bp, c.bp_type, c.bp_id, s.app_id
  FROM sessions s JOIN users u ON u.id = s.user_id JOIN companies c ON c.id = u.company_id
  WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > $2::timestamptz AND NOT u.is_terminated AND c.status <> 'terminated')`;

const CALLER_SELECT = `caller.id AS c_id, caller.login_email AS c_login_email, caller.company_id AS c_company_id,
  caller.roles AS c_roles, caller.site_id AS c_site_id, caller.organisation_id AS c_organisation_id,
  caller.is_bp AS c_is_bp, caller.bp_type AS c_bp_type, caller.bp_id AS c_bp_id, caller.app_id AS c_app_id`;

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

const CALLER_TEXT = `${CALLER_CTE} SELECT ${CALLER_SELECT} FROM caller`;

/** The caller of a valid token, or 401 when its session is revoked or expired. */
export async function loadCaller(deps: AppDeps, token: VerifiedToken): Promise<Caller> {
  const rows = await deps.database.prepared<CallerRow>('auth_caller', CALLER_TEXT, [token.sessionId, deps.now().toISOString()]);
  if (!rows[0]) fail('TOKEN_REVOKED');
  return toCaller(rows[0], token.sessionId);
}

/** Caller fields a target id may default to when the request names none. */
const FALLBACK_COLUMNS = { companyId: 'caller.company_id' } as const;
export type TargetFallback = keyof typeof FALLBACK_COLUMNS;

interface TargetStatement {
  name: string;
  text: string;
  columns: [prop: string, alias: string][];
  relations: RelationName[];
  extras: string[];
}

const dialect = new PgDialect();
const statements = new Map<string, TargetStatement>();

/** The extras of a target reference as select items `x_<name>`; they read the target `t` and bind no values. */
function extraSelect(operationId: string, extras: Record<string, SQL>): string[] {
  return Object.entries(extras).map(([name, expr]) => {
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(name)) throw new Error(`${operationId}: extra ${name} is not a plain name`);
    const q = dialect.sqlToQuery(sql`(${expr}) AS "x_${sql.raw(name)}"`);
    if (q.params.length) throw new Error(`${operationId}: extra ${name} binds values; it must read the target row t only`);
    return q.sql;
  });
}

function targetStatement(operationId: string, kindName: TargetKindName, fallback: TargetFallback | undefined, extras: Record<string, SQL> = {}): TargetStatement {
  const cached = statements.get(operationId);
  if (cached) return cached;
  const kind = TARGETS[kindName];
  const alias = (col: { name: string }) => sql.raw(`t."${col.name}"`);
  const kc = kind.cols as TargetKind['cols'];
  const cols = { company: kc.company && alias(kc.company), site: kc.site && alias(kc.site), owner: kc.owner && alias(kc.owner), organisation: kc.organisation && alias(kc.organisation) };
  const tableColumns = Object.entries(getTableColumns(kind.table) as Record<string, { name: string }>);
  const columns = tableColumns.map(([prop]) => [prop, `t_${prop}`] as [string, string]);
  const selectTarget = tableColumns.map(([prop, col]) => `t."${col.name}" AS "t_${prop}"`).join(', ');
  const relations = [...relationsOf(operationId)];
  const relationSelect = relations.map(([r, roles]) => {
    const guard = r === 'any' ? sql`TRUE` : relationSql(r, CALLER_COLUMNS, cols);
    // Only callers holding a role whose grant names the relation pay for its subqueries.
    const rolesArray = sql.raw(`ARRAY[${[...roles].map((x) => `'${x}'`).join(',')}]::text[]`);
    const q = dialect.sqlToQuery(sql`CASE WHEN caller.roles && ${rolesArray} THEN ${guard} ELSE FALSE END AS "r_${sql.raw(r)}"`);
    // The statement's parameters are the session, the time and the target id only.
    if (q.params.length) throw new Error(`relation ${r} binds values; it must read the caller from the CTE`);
    return q.sql;
  });
  const extraItems = extraSelect(operationId, extras);
  const idExpr = fallback ? `COALESCE($3::text, ${FALLBACK_COLUMNS[fallback]})` : '$3::text';
  const text = `${CALLER_CTE}
SELECT ${CALLER_SELECT}, (t.id IS NOT NULL) AS t_found, ${selectTarget}${[...relationSelect, ...extraItems].map((x) => `, ${x}`).join('')}
FROM caller LEFT JOIN ${kind.tableName} t ON t.id = ${idExpr}`;
  const st = { name: `target_${operationId}`, text, columns, relations: relations.map(([r]) => r), extras: Object.keys(extras) };
  statements.set(operationId, st);
  return st;
}

/**
 * Authenticates and authorises in one statement. Returns the caller and the target row (plain
 * columns, camelCase) when the caller may act; throws 401, 404 or 403 otherwise.
 */
export async function resolveCallerAndTarget(
  deps: AppDeps,
  operationId: string,
  token: VerifiedToken,
  kindName: TargetKindName,
  id: string | undefined,
  fallback: TargetFallback | undefined,
  body: unknown,
  extras?: Record<string, SQL>,
): Promise<{ caller: Caller; target: Record<string, unknown>; extras: Record<string, unknown> }> {
  const st = targetStatement(operationId, kindName, fallback, extras);
  const rows = await deps.database.prepared<Record<string, unknown>>(st.name, st.text, [token.sessionId, deps.now().toISOString(), id ?? null]);
  const row = rows[0];
  if (!row) fail('TOKEN_REVOKED');
  const caller = toCaller(row as unknown as CallerRow, token.sessionId);
  if (!row.t_found) fail('NOT_FOUND', { target: kindName, id });
  const target: Record<string, unknown> = {};
  for (const [prop, a] of st.columns) target[prop] = row[a];
  decide(caller, operationId, (r) => row[`r_${r}`] === true, target, body, kindName);
  const extraValues: Record<string, unknown> = {};
  for (const name of st.extras) extraValues[name] = row[`x_${name}`];
  return { caller, target, extras: extraValues };
}
