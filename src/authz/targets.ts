// The kinds of target an operation acts on: their table, the columns that relations speak of,
// the operation whose grants say who can see one (the 404 / 403 rule), and the parents a target
// of the kind belongs to (a child that is not under the parent named by the path gives 404).
import type { Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { applications, companies, joinCompanyLinks, joinInvitations, organisations, sites, users } from '../db/schema.ts';
import type { TargetColumns } from './relations.ts';

export interface TargetKind {
  table: PgTable;
  tableName: string;
  id: Column;
  cols: { company?: Column; site?: Column; owner?: Column; organisation?: Column };
  /**
   * The operation whose grants make a target of this kind visible: a caller who may read the
   * target (or its parent) but not act on it gets 403; one who may not read it gets 404.
   */
  readBy: string;
  /** The column holding the id of each parent kind, for paths such as companies/{id}/sites/{id}. */
  parents?: Record<string, Column>;
}

export const TARGETS = {
  user: {
    table: users,
    tableName: 'users',
    id: users.id,
    cols: { company: users.companyId, site: users.siteId, owner: users.id },
    readBy: 'getUser',
    parents: { company: users.companyId, site: users.siteId },
  },
  company: {
    table: companies,
    tableName: 'companies',
    id: companies.id,
    cols: { company: companies.id },
    readBy: 'getCompany',
    parents: { organisation: companies.organisationId, company: companies.bpId },
  },
  application: {
    table: applications,
    tableName: 'applications',
    id: applications.id,
    cols: { company: applications.companyId, owner: applications.ownerId },
    readBy: 'getApplication',
    parents: { company: applications.companyId },
  },
  site: { table: sites, tableName: 'sites', id: sites.id, cols: { company: sites.companyId, site: sites.id }, readBy: 'getSite', parents: { company: sites.companyId } },
  organisation: { table: organisations, tableName: 'organisations', id: organisations.id, cols: { organisation: organisations.id }, readBy: 'getOrganisation' },
  joinLink: {
    table: joinCompanyLinks,
    tableName: 'join_company_links',
    id: joinCompanyLinks.id,
    cols: { company: joinCompanyLinks.companyId },
    readBy: 'getJoinCompanyLink',
    parents: { company: joinCompanyLinks.companyId },
  },
  joinInvitation: {
    table: joinInvitations,
    tableName: 'join_invitations',
    id: joinInvitations.id,
    cols: { company: joinInvitations.companyId },
    readBy: 'listJoinInvitations',
    parents: { company: joinInvitations.companyId },
  },
} satisfies Record<string, TargetKind>;

export type TargetKindName = keyof typeof TARGETS;

/** The row of a target of kind K, as the handler receives it (camelCase columns). */
export type TargetRow<K extends TargetKindName> = (typeof TARGETS)[K]['table']['$inferSelect'];

export type { TargetColumns };
