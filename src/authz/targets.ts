// The kinds of target an operation acts on, with the columns that relations speak of.
import type { Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { applications, companies, users } from '../db/schema.js';
import type { TargetColumns } from './relations.js';

export interface TargetKind {
  table: PgTable;
  tableName: string;
  id: Column;
  cols: { company: Column; site?: Column; owner?: Column };
}

export const TARGETS = {
  user: { table: users, tableName: 'users', id: users.id, cols: { company: users.companyId, site: users.siteId, owner: users.id } },
  company: { table: companies, tableName: 'companies', id: companies.id, cols: { company: companies.id } },
  application: { table: applications, tableName: 'applications', id: applications.id, cols: { company: applications.companyId, owner: applications.ownerId } },
} satisfies Record<string, TargetKind>;

export type TargetKindName = keyof typeof TARGETS;

export type { TargetColumns };
