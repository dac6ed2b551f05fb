// The contract between the authorisation matrix (test/authz/matrix.test.ts) and the sample
// requests of each module (test/authz/samples/<module>.ts).
//
// How a module adds its samples: create test/authz/samples/<module>.ts exporting
//
//   export const <module>Samples: Record<string, Sample> = { <operationId>: { type: ..., ... } };
//
// The matrix imports every file of this folder but this one, merges every export whose name
// ends in `Samples`, and fails on a duplicate operationId or on a file exporting none. Each
// operation of POLICY served in src/modules/index.ts needs exactly one sample, of the type its
// policy entry calls for:
//   - `public` entry                        -> type 'public'
//   - `authenticated` entry                 -> type 'authenticated'
//   - `grants` entry, operation with target -> type 'target' (the matrix makes the target)
//   - `grants` entry, no target             -> type 'list' or 'targetless'
// Keep this file stable: module helpers write against it.
import type { ConditionName } from '../../../src/authz/conditions.ts';
import type { Role } from '../../../src/authz/roles.ts';
import type { TargetKindName } from '../../../src/authz/targets.ts';
import type { MadeUser } from '../../support/factories.ts';
import type { TestApp } from '../../support/harness.ts';

export type { ConditionName, Role, TargetKindName, MadeUser, TestApp };
/** Generic helpers samples commonly need. */
export { PASSWORD } from '../../support/factories.ts';
export { basic, bearer } from '../../support/harness.ts';
export { expect } from '../../support/expect.ts';

// ---------------------------------------------------------------------------------------------
// The vocabulary of the world the matrix builds (its facts, BP links and homes of callers, are
// declared in matrix.test.ts). Samples see these keys in a Placement and in Ctx.world.

/**
 * The companies of the world: `hq` the operator's, `vad` a BP VAD, `ir` a BP IR whose BP is
 * `vad`, `ecVad`/`ecIr` End Customers of each, `orgA`/`orgB` two companies of the organisation
 * `org`, `elsewhere` where the `any` relation is exercised, `unrelated` out of every scope.
 */
export const COMPANY_KEYS = [
  'hq',
  'vad',
  'ir',
  'ecVad',
  'ecIr',
  'orgA',
  'orgB',
  'orgBp',
  'orgIr',
  'ecOrgBp',
  'ecOrgIr',
  'elsewhere',
  'unrelated',
] as const;
export type CompanyKey = (typeof COMPANY_KEYS)[number];

/** The sites of the world, with their company (site_admin sits at `siteEcIr`). */
export const SITES = { siteEcIr: 'ecIr', siteEcIr2: 'ecIr' } as const satisfies Record<string, CompanyKey>;
export type SiteKey = keyof typeof SITES;

/**
 * The organisations of the world: `org` (of orgA and orgB), `orgElsewhere` where `any` is
 * exercised on organisation targets, `orgUnrelated` out of every scope.
 */
export const ORGANISATION_KEYS = ['org', 'orgElsewhere', 'orgUnrelated'] as const;
export type OrganisationKey = (typeof ORGANISATION_KEYS)[number];

/**
 * Where a target sits. Company-based kinds (user, company, application, site, joinLink,
 * joinInvitation) have `company`; organisation targets have `organisation` and no company.
 */
export interface Placement {
  /** The company the target belongs to (for a company target: the company itself). */
  company?: CompanyKey;
  /**
   * The site of the target (users, sites). For a site target: the world's site itself; a site
   * target with a company and no `site` is another site of that company, made for the case.
   */
  site?: SiteKey;
  /** The caller himself (user targets) or something he owns (application targets). */
  self?: boolean;
  /** For organisation targets: which organisation of the world. */
  organisation?: OrganisationKey;
}

/** The ids of the world in the database, by key. */
export interface WorldIds {
  companies: Record<CompanyKey, string>;
  sites: Record<SiteKey, string>;
  organisations: Record<OrganisationKey, string>;
  /** The caller of each role (holding that role and `user`), signed in. */
  callers: Record<Role, MadeUser>;
  /** A plain user of each company, signed in (owner of its applications). */
  owners: Record<CompanyKey, MadeUser>;
}

// ---------------------------------------------------------------------------------------------
// Requests.

/** One HTTP request. The matrix adds the caller's bearer token (unless `headers` overrides it). */
export interface Req {
  method: string;
  /** Full URL with query string, e.g. `/api/svc/admin/v1.0/users/${id}?limit=10`. */
  url: string;
  headers?: Record<string, string>;
  /** A JSON body (object) or a raw string (forms). */
  payload?: unknown;
}

/** What a sample's request is built with, for one case. */
export interface Ctx {
  /** The test application (t.inject, t.db, t.login), for setup the request needs. */
  t: TestApp;
  /**
   * Who calls: the role's caller, or for a `fresh` target case whose relation is identity
   * (himself, his company, his site, his organisation...) a twin of him made for the case.
   */
  caller: MadeUser;
  /** The role the case is about (the caller holds it and `user`). */
  role: Role | `${Role}+${Role}`;
  /** A number unique to the case: use it for names and emails that must not collide. */
  n: number;
  /** The world's ids by key. */
  world: WorldIds;
  /** For 'target' and 'list' cases: where the case's target sits. */
  placement?: Placement;
}

/** How to make one condition of a grant fail (a case is generated per condition), or hold (`satisfy`). */
export interface Violation {
  /** The target user holds these roles instead of just `user` (user targets only). */
  targetRoles?: Role[];
  /** The request body instead of the sample's (passed as `body` to a target sample's request). */
  body?: Record<string, unknown>;
  /**
   * Conditions on the caller's company (its BP type): a twin of the caller sits in a new company
   * with the facts of this company of the world (its BP type, its BP), and the target is that
   * company (company targets) or belongs to it (subscriptions). Only where the target sits in
   * the caller's own company; company and subscription targets.
   */
  callerLike?: CompanyKey;
}

/** The sample request of one operation. */
export type Sample =
  /** No caller: the request carries its own credentials (or none). Expected: the success status, for every role. */
  | {
      type: 'public';
      request: (ctx: Ctx) => Promise<Req>;
      /** Why the response is not checked against the OpenAPI document (unset: it is). */
      skipDocumentCheck?: string;
    }
  /** Any signed-in caller: 401 without token, the success status for every role. */
  | {
      type: 'authenticated';
      request: (ctx: Ctx) => Req;
      /** The request uses up its token (logout, renew): each case signs in anew. */
      consumesToken?: boolean;
    }
  /**
   * An operation on one target of kind `op.target.kind`: the matrix makes the target (at each
   * in-scope and out-of-scope placement) and passes its id. The id is always of the kind the
   * operation declares (for createUser, whose target is a company: a company id).
   */
  | {
      type: 'target';
      /** Optional: the kind this sample expects; the matrix checks it against the operation's. */
      kind?: TargetKindName;
      /**
       * The request on target `id`. `body` is set when a Violation replaces the body. May be
       * async (setup through ctx.t); if so, and a condition reads the body, set `defaultBody`.
       */
      request: (id: string, ctx: Ctx, body?: Record<string, unknown>) => Req | Promise<Req>;
      /** The operation changes or deletes its target: each case gets a target of its own. */
      fresh: boolean;
      /**
       * The body as the grants' conditions see it when no violation is in play. Unset: the
       * matrix reads the payload of request('x', ctx without t, caller or world).
       */
      defaultBody?: unknown;
      /** How to make each condition of the operation's grants fail (required for each). */
      violations?: Partial<Record<ConditionName, Violation>>;
      /**
       * How to make a condition hold that the world's callers never meet (a BP IR's bp_finance:
       * the world's bp_finance sits at the VAD): a case per condition, as for violations.
       */
      satisfy?: Partial<Record<ConditionName, Violation>>;
      /**
       * A rule of the service that refuses what the table allows (deleting oneself): the status
       * and errorDetailsCode expected instead of success, or undefined to expect success.
       */
      businessRefusal?: (p: Placement) => { status: number; code: number } | undefined;
      /**
       * Per second resource the operation declares (its policy's `second`): the request acting
       * on target `id` and on second resource `secondId`. The matrix places the second resource
       * in and out of the caller's reach while the target is one he may act on (`mainAt: 'home'`:
       * his own company's, for operations whose target falls back to it).
       */
      second?: Record<
        string,
        { request: (id: string, secondId: string, ctx: Ctx) => Req | Promise<Req>; mainAt?: 'home' }
      >;
    }
  /**
   * A list filtered by the caller's grants: for each placement, a target of `kind` is made and
   * must be listed exactly when a held grant's relation holds. Paged until `total`.
   */
  | {
      type: 'list';
      kind: TargetKindName;
      request: (offset: number, ctx: Ctx) => Req;
      /** The ids of one page's items, from the response body. */
      ids: (body: any) => string[];
      /** The `total` of the response body (default: body.total). */
      total?: (body: any) => number;
    }
  /** A grants operation with no target: success when the role holds any grant, else 403. May be async (setup through ctx.t). */
  | { type: 'targetless'; request: (ctx: Ctx) => Req | Promise<Req> };
