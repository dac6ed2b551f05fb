// References (docs/decisions.md, References and tenant isolation): request fields holding the id of another
// resource that the operation stores or uses as a value (a company's contact, a user's site, the companies a company
// is visible to), as opposed to the resources it acts on (its target and second resources, which
// answer 404 or 403 like a path). A reference must name a resource of the declared kind that the
// caller may read (the grants of the kind's read operation, TARGETS[kind].readBy) and that meets
// the field's rule (`where`: a user *of this company*). Otherwise the answer is 400
// UNKNOWN_REFERENCE, the same whether the resource does not exist or is out of the caller's reach
// (so nothing is learnt about other tenants), and nothing is stored.
import { and, eq, getTableColumns, inArray, isNull, sql, type Column } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { fail } from '../errors/catalogue.ts';
import { grantsScope, heldGrants, readGrantsOf } from './evaluate.ts';
import { POLICY } from './policy.ts';
import type { Caller } from './roles.ts';
import { kindColumns, TARGETS, type TargetKindName } from './targets.ts';
import { isRecord } from '../shared/json-values.ts';

/** The declaration of one reference field of an operation's body. */
export interface ReferenceRef<T = Record<string, unknown>> {
  kind: TargetKindName;
  /** The rule in words, for the OpenAPI description and the error's details ("a user of the company"). */
  rule: string;
  /**
   * Columns of the referenced row (table properties, camelCase) that must equal values of the
   * request, computed from the operation's target: `(company) => ({ companyId: company.id })`.
   * `null` when no resource can qualify (the users of a company being created: it has none).
   */
  // A method, so that a reference over a company row is one over any row (bivariant parameter).
  where?(target: T): Record<string, unknown> | null;
}

/**
 * The ids a body value names: a string, or each string of an array. Null, absent and the empty
 * string name none (clients of the original interface clear a reference with "").
 */
export function referencedIds(value: unknown): string[] {
  const ids = Array.isArray(value) ? value : [value];
  return [...new Set(ids.filter((v): v is string => typeof v === 'string' && v !== ''))];
}

/**
 * Checks that every id names a resource of `kind` the caller may read and that meets `where`;
 * fails with 400 UNKNOWN_REFERENCE naming the field and the first id that does not. One statement.
 * Services whose rule the declaration cannot say call it directly.
 */
export async function checkReference(
  exec: Executor,
  caller: Caller,
  field: string,
  kind: TargetKindName,
  ids: readonly string[],
  opts: { rule?: string; where?: Record<string, unknown> | null } = {},
): Promise<void> {
  if (ids.length === 0) return;
  const refuse = (id: string) =>
    fail('UNKNOWN_REFERENCE', { field, kind, id, ...(opts.rule ? { rule: opts.rule } : {}) });
  // Reading a kind is what its read operation grants; a conditional grant is not taken as reading.
  const held = heldGrants(readGrantsOf(kind), caller).filter((g) => !g.condition);
  if (held.length === 0 || opts.where === null) refuse(ids[0]);
  const target = TARGETS[kind];
  const columns: Record<string, Column> = getTableColumns(target.table);
  const conditions = Object.entries(opts.where ?? {}).map(([prop, value]) => {
    const column = columns[prop];
    if (!column) throw new Error(`reference ${field}: a ${kind} has no column ${prop}`);
    return value === null || value === undefined ? isNull(column) : eq(column, value);
  });
  const scope = grantsScope(held, caller, kindColumns(kind));
  const rows = await exec
    .select({ id: sql<string>`${target.id}` })
    .from(target.table)
    .where(and(inArray(target.id, [...ids]), scope ?? sql`TRUE`, ...conditions));
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) refuse(missing);
}

/**
 * The declared references of a request, checked before its handler runs. `kept`: on an update,
 * the ids the target already holds in the field pass without a check (a client sends back what
 * it read; they were checked when they were set).
 */
export async function checkReferences(
  exec: Executor,
  caller: Caller,
  references: Readonly<Record<string, ReferenceRef>>,
  body: unknown,
  target: Record<string, unknown>,
  kept: boolean,
): Promise<void> {
  const values = isRecord(body) ? body : {};
  for (const [field, ref] of Object.entries(references)) {
    const held = kept ? new Set(referencedIds(target[field])) : new Set<string>();
    const ids = referencedIds(values[field]).filter((id) => !held.has(id));
    if (ids.length)
      await checkReference(exec, caller, field, ref.kind, ids, { rule: ref.rule, where: ref.where?.(target) });
  }
}

/** Refuses a declaration whose references name no body field or a kind nobody reads. */
export function checkReferenceDeclaration(
  operationId: string,
  body: unknown,
  references: Readonly<Record<string, ReferenceRef>>,
): void {
  const properties = isRecord(body) ? body.properties : undefined;
  const fields = isRecord(properties) ? properties : {};
  for (const [field, ref] of Object.entries(references)) {
    if (!(field in fields))
      throw new Error(`operation ${operationId} declares a reference ${field} that its body does not have`);
    if (!(ref.kind in TARGETS))
      throw new Error(`operation ${operationId}: reference ${field} names an unknown kind ${ref.kind}`);
    if (POLICY[TARGETS[ref.kind].readBy]?.kind !== 'grants')
      throw new Error(
        `operation ${operationId}: the read operation of a ${ref.kind} (${TARGETS[ref.kind].readBy}) has no grants`,
      );
  }
}

/** The references in words, for the operation's OpenAPI description. */
export function referenceWords(references: Readonly<Record<string, ReferenceRef>> | undefined): string {
  const list = Object.entries(references ?? {}).map(([field, ref]) => `${field}: ${ref.rule}`);
  return list.length ? `References (400 when another id is sent): ${list.join('; ')}.` : '';
}
