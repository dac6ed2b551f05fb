// Relations between a caller and a target, as named SQL predicates. The policy table speaks
// in these names. A predicate reads the caller through a CallerSql: bound parameters when the
// caller is already known (the WHERE clause of a list), or the columns of the `caller` CTE when
// one statement checks the session, loads the caller and the target together (single targets).
import { sql, type SQL, type Column } from 'drizzle-orm';
import type { Caller } from './roles.ts';

/** The columns of a target that relations speak of. */
export interface TargetColumns {
  company?: Column | SQL;
  site?: Column | SQL;
  owner?: Column | SQL;
  organisation?: Column | SQL;
  /** For a company target: its BP (bp_id) and its organisation, read on the row itself. */
  companyBp?: Column | SQL;
  companyOrganisation?: Column | SQL;
  /** For an external trunk: the BP companies that may use it (an array, bp_ids). */
  bps?: Column | SQL;
}

/** The caller's facts as SQL expressions. */
export interface CallerSql {
  userId: SQL;
  companyId: SQL;
  siteId: SQL;
  organisationId: SQL;
  isBP: SQL;
  bpType: SQL;
  bpId: SQL;
}

/** The caller's values the relations read: every one of them, and nothing else. */
export function callerValues(c: Caller): Record<keyof CallerSql, string | boolean | null> {
  return {
    userId: c.userId,
    companyId: c.companyId,
    siteId: c.siteId,
    organisationId: c.organisationId,
    isBP: c.companyIsBP,
    bpType: c.companyBpType,
    bpId: c.companyBpId,
  };
}

export function callerParams(c: Caller): CallerSql {
  const v = callerValues(c);
  return {
    userId: sql`${v.userId}::text`,
    companyId: sql`${v.companyId}::text`,
    siteId: sql`${v.siteId}::text`,
    organisationId: sql`${v.organisationId}::text`,
    isBP: sql`${v.isBP}::boolean`,
    bpType: sql`${v.bpType}::text`,
    bpId: sql`${v.bpId}::text`,
  };
}

/** The columns of the `caller` CTE of src/authz/resolve.ts. */
export const CALLER_COLUMNS: CallerSql = {
  userId: sql.raw('caller.id'),
  companyId: sql.raw('caller.company_id'),
  siteId: sql.raw('caller.site_id'),
  organisationId: sql.raw('caller.organisation_id'),
  isBP: sql.raw('caller.is_bp'),
  bpType: sql.raw('caller.bp_type'),
  bpId: sql.raw('caller.bp_id'),
};

type Predicate = (c: CallerSql, t: TargetColumns) => SQL;

const FALSE = sql`FALSE`;

/** A predicate on the target's company; FALSE for targets that belong to no company (organisations). */
const onCompany = (t: TargetColumns, p: (company: Column | SQL) => SQL): SQL => (t.company ? p(t.company) : FALSE);

// A NULL on either side makes a comparison NULL: callers wrap predicates in COALESCE(..., FALSE).
export const RELATIONS = {
  /** Any target at all (superadmin, support). */
  any: () => sql`TRUE`,
  /** The caller's own company. */
  ownCompany: (c, t) => onCompany(t, (co) => sql`${co} = ${c.companyId}`),
  /** The BP company of the caller's company. */
  ownBpCompany: (c, t) => onCompany(t, (co) => sql`${co} = ${c.bpId}`),
  /**
   * End Customer (or BP IR) companies whose BP is the caller's company; for a VAD also the
   * End Customers of its BP IR companies (document 3, get company).
   */
  customerOfOwnBp: (c, t) =>
    t.companyBp
      ? // A company target: its own bp_id, which the BP's index serves (lists of 100,000 companies).
        sql`(${c.isBP} AND (${t.companyBp} = ${c.companyId}
    OR (${c.bpType} = 'VAD' AND ${t.companyBp} IN (SELECT ir.id FROM companies ir WHERE ir.bp_id = ${c.companyId} AND ir.bp_type = 'IR'))))`
      : onCompany(
          t,
          (co) => sql`(${c.isBP} AND (
    ${co} IN (SELECT ec.id FROM companies ec WHERE ec.bp_id = ${c.companyId})
    OR (${c.bpType} = 'VAD' AND ${co} IN (SELECT ec.id FROM companies ec JOIN companies ir ON ec.bp_id = ir.id WHERE ir.bp_id = ${c.companyId} AND ir.bp_type = 'IR'))))`,
        ),
  /** Companies linked to the caller's organisation. */
  companyOfOwnOrganisation: (c, t) =>
    t.companyOrganisation
      ? sql`${t.companyOrganisation} = ${c.organisationId}`
      : onCompany(
          t,
          (co) => sql`${co} IN (SELECT o.id FROM companies o WHERE o.organisation_id = ${c.organisationId})`,
        ),
  /**
   * End Customer (or BP IR) companies linked to a BP company of the caller's organisation: their
   * BP belongs to it, or, for the End Customers of a BP IR, the IR's VAD does (as customerOfOwnBp
   * for a VAD). Held with organization_admin by a bp_admin or bp_finance (document 1, list offers
   * of a company: "organisation companies plus the End Customers / BP IR linked to BP companies of
   * the organisation"; create a quotation, rule 1: "the whole organisation and linked End
   * Customers / BP IR").
   */
  customerOfOrganisationBp: (c, t) => {
    const linked = (
      bp: Column | SQL,
    ) => sql`(${bp} IN (SELECT bp.id FROM companies bp WHERE bp.organisation_id = ${c.organisationId} AND bp.is_bp)
    OR ${bp} IN (SELECT ir.id FROM companies ir JOIN companies vad ON vad.id = ir.bp_id WHERE vad.organisation_id = ${c.organisationId} AND vad.is_bp AND vad.bp_type = 'VAD' AND ir.bp_type = 'IR'))`;
    return t.companyBp
      ? linked(t.companyBp)
      : onCompany(t, (co) => sql`${co} IN (SELECT ec.id FROM companies ec WHERE ${linked(sql.raw('ec.bp_id'))})`);
  },
  /** The caller's organisation itself (organisation targets). */
  ownOrganisation: (c, t) => (t.organisation ? sql`${t.organisation} = ${c.organisationId}` : FALSE),
  /** The caller's own site (site_admin). */
  ownSite: (c, t) => (t.site ? sql`${t.site} = ${c.siteId}` : FALSE),
  /**
   * External trunks (document 2, list external trunks: "bp_admin (only trunks it may use)"): a
   * trunk whose BP companies (bp_ids) hold the caller's company.
   */
  trunkOfOwnCompany: (c, t) => (t.bps ? sql`${c.companyId} = ANY(${t.bps})` : FALSE),
  /**
   * External trunks: a trunk whose BP companies hold the BP of the caller's company (the trunks
   * its BP may link to its End Customers' CloudPBXs; docs/decisions.md, external trunks).
   */
  trunkOfOwnBp: (c, t) => (t.bps ? sql`${c.bpId} = ANY(${t.bps})` : FALSE),
  /** The caller himself, or what he owns. */
  self: (c, t) => (t.owner ? sql`${t.owner} = ${c.userId}` : FALSE),
} satisfies Record<string, Predicate>;

export type RelationName = keyof typeof RELATIONS;
export const isRelationName = (k: string): k is RelationName => k in RELATIONS;
export const RELATION_NAMES = Object.keys(RELATIONS).filter(isRelationName);

export function relationSql(name: RelationName, c: CallerSql, t: TargetColumns): SQL {
  return sql`COALESCE((${RELATIONS[name](c, t)}), FALSE)`;
}
