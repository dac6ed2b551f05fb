// The kinds of target an operation acts on: their table, the columns that relations speak of,
// the operation whose grants say who can see one (the 404 / 403 rule), the kind each belongs to
// (its parent: a device's subscriber, a subscriber's PBX) and the other kinds a path may name above
// it. Each module declares its own kinds (src/modules/<module>/<module>.module.ts) and adds their
// tables to `TargetTables` by declaration merging, so that a kind's name types `ctx.target`.
//
// A child kind copies none of its ancestors' columns: the relations of a phone number read the
// company and site of its system. `ancestry` says where each column a relation reads lives; the
// authorising statement joins those ancestors (src/authz/resolve.ts) and the WHERE clauses of lists
// and references read them through `kindColumns` (correlated subqueries, one indexed lookup each).
import { getTableName, sql, type Column, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { TargetColumns } from './relations.ts';

/** The names of the columns relations read (src/authz/relations.ts, TargetColumns). */
export const COLUMN_KEYS = [
  'company',
  'site',
  'owner',
  'organisation',
  'companyBp',
  'companyOrganisation',
  'bps',
] as const;
export type ColumnKey = (typeof COLUMN_KEYS)[number];

export interface TargetKind {
  table: PgTable;
  tableName: string;
  id: Column;
  /**
   * The columns relations speak of, on the kind's own table. A company target also names its own
   * BP and organisation columns (`companyBp`, `companyOrganisation`), so that partner relations
   * read the row itself, which an index serves, instead of looking its id up among the partner's
   * companies. A key the kind does not name is read on its nearest ancestor that does.
   */
  cols: Partial<Record<ColumnKey, Column>>;
  /**
   * The operation whose grants make a target of this kind visible: a caller who may read the
   * target (or its parent) but not act on it gets 403; one who may not read it gets 404.
   */
  readBy: string;
  /** The kind a target of this kind belongs to, and the column holding that parent's id. */
  parent?: { kind: string; column: Column };
  /** Other kinds a path may name above a target (a company under its organisation), with the column holding their id. */
  parents?: Record<string, Column>;
}

/** Kind name -> its table, filled by the modules (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modules
export interface TargetTables {}

// (Every kind's name is a string: `Extract` keeps them, as `& string` did before the modules filled it.)
export type TargetKindName = Extract<keyof TargetTables, string>;

/** The row of a target of kind K, as the handler receives it (camelCase columns). */
export type TargetRow<K extends TargetKindName> = TargetTables[K] extends { $inferSelect: infer R } ? R : never;

/**
 * The kinds of the installed modules, filled as each module registers its own (so keyed by
 * text: a kind's name reads its entry once `checkTargetChains` has found every chain whole).
 */
export const TARGETS: Record<string, TargetKind> = {};

/** Whether a name is an installed kind's. */
export const isTargetKind = (name: string): name is TargetKindName => name in TARGETS;

/** Adds a module's kinds; a kind declared twice is refused. */
export function registerTargets(owner: string, kinds: Record<string, TargetKind>): void {
  const all = TARGETS;
  for (const [name, kind] of Object.entries(kinds)) {
    if (name in all) throw new Error(`target kind ${name} (${owner}) is declared twice`);
    all[name] = kind;
  }
}

/** Refuses a parent that names no installed kind, or a chain of parents that loops (after every module is installed). */
export function checkTargetChains(): void {
  const all = TARGETS;
  for (const [name, kind] of Object.entries(all)) {
    const seen = new Set([name]);
    for (let k = kind.parent; k; k = all[k.kind]?.parent) {
      if (!all[k.kind]) throw new Error(`target kind ${name}: its chain names an unknown kind ${k.kind}`);
      if (seen.has(k.kind)) throw new Error(`target kind ${name}: its chain of parents loops at ${k.kind}`);
      seen.add(k.kind);
    }
    for (const p of Object.keys(kind.parents ?? {}))
      if (!all[p]) throw new Error(`target kind ${name}: parent ${p} is not a kind`);
  }
}

/** A kind of target over `table`: its name and id column are the table's own. */
export function targetKind<T extends PgTable & { id: Column }>(
  table: T,
  rest: Omit<TargetKind, 'table' | 'tableName' | 'id'>,
) {
  return { table, tableName: getTableName(table), id: table.id, ...rest };
}

/** The kinds from a kind up to the top of its chain: [the kind, its parent, its grandparent...]. */
export function chainOf(kind: TargetKindName): TargetKindName[] {
  const chain: TargetKindName[] = [kind];
  // An unknown parent ends the chain: `checkTargetChains` refuses one at start-up.
  for (let p = TARGETS[kind].parent; p && isTargetKind(p.kind); p = TARGETS[p.kind].parent) chain.push(p.kind);
  return chain;
}

/** For each column a relation reads: how many levels up the chain it lives (0: the kind's own) and the column. */
export function ancestry(kind: TargetKindName): Partial<Record<ColumnKey, { depth: number; column: Column }>> {
  const chain = chainOf(kind);
  const out: Partial<Record<ColumnKey, { depth: number; column: Column }>> = {};
  for (const key of COLUMN_KEYS) {
    const depth = chain.findIndex((k) => TARGETS[k].cols[key] !== undefined);
    if (depth >= 0) out[key] = { depth, column: TARGETS[chain[depth]].cols[key]! };
  }
  return out;
}

/** The column of a kind that holds the id of `above` when a path names it: its chain parent, or one of its other parents. */
export function linkColumn(kind: TargetKindName, above: TargetKindName): Column | undefined {
  const k = TARGETS[kind];
  return k.parent?.kind === above ? k.parent.column : k.parents?.[above];
}

/**
 * The columns relations read, as SQL over the kind's own table (for WHERE clauses: lists,
 * references, reach). A column of an ancestor is a correlated subquery walking the chain by
 * primary key: `(SELECT a1.company_id FROM systems a1 WHERE a1.id = phone_numbers.system_id)`.
 */
export function kindColumns(kind: TargetKindName): TargetColumns {
  const chain = chainOf(kind);
  const out: TargetColumns = {};
  const ancestors = ancestry(kind);
  for (const key of COLUMN_KEYS) {
    const found = ancestors[key];
    if (!found) continue;
    if (found.depth === 0) {
      out[key] = found.column;
      continue;
    }
    // From the top of the walk down: a1 is the parent, a2 the grandparent...
    let expr: SQL = sql.raw(`a${found.depth}."${found.column.name}"`);
    for (let d = found.depth; d >= 1; d--) {
      const above = TARGETS[chain[d]];
      const link = TARGETS[chain[d - 1]].parent!.column;
      const from = d === 1 ? sql`${link}` : sql.raw(`a${d - 1}."${link.name}"`);
      expr = sql`(SELECT ${expr} FROM ${sql.raw(`${above.tableName} a${d}`)} WHERE ${sql.raw(`a${d}.id`)} = ${from})`;
    }
    out[key] = expr;
  }
  return out;
}

/** The tables of a module's kinds, for its `TargetTables` augmentation. */
export type TablesOf<T extends Record<string, { table: unknown }>> = { [K in keyof T]: T[K]['table'] };

export type { TargetColumns };
