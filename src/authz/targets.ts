// The kinds of target an operation acts on, with the columns that relations speak of.
import { getTableColumns, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { applications, companies, users } from '../db/schema.js';
import type { TargetColumns } from './relations.js';

export interface TargetKind {
  table: PgTable;
  id: Column;
  cols: TargetColumns;
  columns: Record<string, Column>;
}

function kind(table: PgTable, id: Column, cols: TargetColumns): TargetKind {
  return { table, id, cols, columns: getTableColumns(table) };
}

export const TARGETS = {
  user: kind(users, users.id, { company: users.companyId, site: users.siteId, owner: users.id }),
  company: kind(companies, companies.id, { company: companies.id }),
  application: kind(applications, applications.id, { company: applications.companyId, owner: applications.ownerId }),
} satisfies Record<string, TargetKind>;

export type TargetKindName = keyof typeof TARGETS;
