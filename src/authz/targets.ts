// The kinds of target an operation acts on, with the columns that relations speak of.
import type { Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { applications, companies, joinCompanyLinks, joinInvitations, organisations, sites, users } from '../db/schema.ts';
import type { TargetColumns } from './relations.ts';

export interface TargetKind {
  table: PgTable;
  tableName: string;
  id: Column;
  cols: { company?: Column; site?: Column; owner?: Column; organisation?: Column };
}

export const TARGETS = {
  user: { table: users, tableName: 'users', id: users.id, cols: { company: users.companyId, site: users.siteId, owner: users.id } },
  company: { table: companies, tableName: 'companies', id: companies.id, cols: { company: companies.id } },
  application: { table: applications, tableName: 'applications', id: applications.id, cols: { company: applications.companyId, owner: applications.ownerId } },
  site: { table: sites, tableName: 'sites', id: sites.id, cols: { company: sites.companyId, site: sites.id } },
  organisation: { table: organisations, tableName: 'organisations', id: organisations.id, cols: { organisation: organisations.id } },
  joinLink: { table: joinCompanyLinks, tableName: 'join_company_links', id: joinCompanyLinks.id, cols: { company: joinCompanyLinks.companyId } },
  joinInvitation: { table: joinInvitations, tableName: 'join_invitations', id: joinInvitations.id, cols: { company: joinInvitations.companyId } },
} satisfies Record<string, TargetKind>;

export type TargetKindName = keyof typeof TARGETS;

export type { TargetColumns };
