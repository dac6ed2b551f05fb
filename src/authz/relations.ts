// Relations between a caller and a target, as named SQL predicates. The policy table speaks
// in these names; a single target is checked by selecting the predicates beside the row, and a
// list is filtered by OR-ing them in its WHERE clause, never by fetching and then filtering.
import { sql, type SQL, type Column } from 'drizzle-orm';
import type { Caller } from './roles.js';

/** The columns of a target that relations speak of. */
export interface TargetColumns {
  company: Column | SQL;
  site?: Column | SQL;
  owner?: Column | SQL;
}

type Predicate = (c: Caller, t: TargetColumns) => SQL;

const FALSE = sql`FALSE`;

export const RELATIONS = {
  /** Any target at all (superadmin, support). */
  any: () => sql`TRUE`,
  /** The caller's own company. */
  ownCompany: (c, t) => sql`${t.company} = ${c.companyId}`,
  /** The BP company of the caller's company. */
  ownBpCompany: (c, t) => (c.companyBpId ? sql`${t.company} = ${c.companyBpId}` : FALSE),
  /**
   * End Customer (or BP IR) companies whose BP is the caller's company; for a VAD also the
   * End Customers of its BP IR companies (document 3, get company).
   */
  customerOfOwnBp: (c, t) => {
    if (!c.companyIsBP) return FALSE;
    const direct = sql`${t.company} IN (SELECT ec.id FROM companies ec WHERE ec.bp_id = ${c.companyId})`;
    if (c.companyBpType !== 'VAD') return direct;
    return sql`(${direct} OR ${t.company} IN (SELECT ec.id FROM companies ec JOIN companies ir ON ec.bp_id = ir.id WHERE ir.bp_id = ${c.companyId} AND ir.bp_type = 'IR'))`;
  },
  /** Companies linked to the caller's organisation. */
  companyOfOwnOrganisation: (c, t) =>
    c.organisationId ? sql`${t.company} IN (SELECT o.id FROM companies o WHERE o.organisation_id = ${c.organisationId})` : FALSE,
  /** The caller's own site (site_admin). */
  ownSite: (c, t) => (c.siteId && t.site ? sql`${t.site} = ${c.siteId}` : FALSE),
  /** The caller himself, or what he owns. */
  self: (c, t) => (t.owner ? sql`${t.owner} = ${c.userId}` : FALSE),
} satisfies Record<string, Predicate>;

export type RelationName = keyof typeof RELATIONS;
export const RELATION_NAMES = Object.keys(RELATIONS) as RelationName[];
