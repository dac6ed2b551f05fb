// The kinds of target an operation acts on: their table, the columns that relations speak of,
// the operation whose grants say who can see one (the 404 / 403 rule), and the parents a target
// of the kind belongs to (a child that is not under the parent named by the path gives 404).
// Each module declares its own kinds (src/modules/<module>/<module>.module.ts) and adds their
// tables to `TargetTables` by declaration merging, so that a kind's name types `ctx.target`.
import { getTableName, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { TargetColumns } from './relations.ts';

export interface TargetKind {
  table: PgTable;
  tableName: string;
  id: Column;
  /**
   * The columns relations speak of. A company target also names its own BP and organisation
   * columns (`companyBp`, `companyOrganisation`), so that partner relations read the row itself,
   * which an index serves, instead of looking its id up among the partner's companies.
   */
  cols: {
    company?: Column;
    site?: Column;
    owner?: Column;
    organisation?: Column;
    companyBp?: Column;
    companyOrganisation?: Column;
  };
  /**
   * The operation whose grants make a target of this kind visible: a caller who may read the
   * target (or its parent) but not act on it gets 403; one who may not read it gets 404.
   */
  readBy: string;
  /** The column holding the id of each parent kind, for paths such as companies/{id}/sites/{id}. */
  parents?: Record<string, Column>;
}

/** Kind name -> its table, filled by the modules (declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modules
export interface TargetTables {}

export type TargetKindName = keyof TargetTables & string;

/** The row of a target of kind K, as the handler receives it (camelCase columns). */
export type TargetRow<K extends TargetKindName> = TargetTables[K] extends { $inferSelect: infer R } ? R : never;

/** The kinds of the installed modules. */
export const TARGETS = {} as Record<TargetKindName, TargetKind>;

/** Adds a module's kinds; a kind declared twice is refused. */
export function registerTargets(owner: string, kinds: Record<string, TargetKind>): void {
  for (const [name, kind] of Object.entries(kinds)) {
    if (name in TARGETS) throw new Error(`target kind ${name} (${owner}) is declared twice`);
    (TARGETS as Record<string, TargetKind>)[name] = kind;
  }
}

/** A kind of target over `table`: its name and id column are the table's own. */
export function targetKind<T extends PgTable & { id: Column }>(
  table: T,
  rest: Omit<TargetKind, 'table' | 'tableName' | 'id'>,
) {
  return { table, tableName: getTableName(table), id: table.id, ...rest };
}

/** The tables of a module's kinds, for its `TargetTables` augmentation. */
export type TablesOf<T extends Record<string, { table: unknown }>> = { [K in keyof T]: T[K]['table'] };

export type { TargetColumns };
