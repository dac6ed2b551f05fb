// The authorisation matrix (issue 2): one case per operation x role x target placement,
// generated FROM THE POLICY TABLE (src/authz/policy.ts) and checked through real HTTP calls on a
// real database. It grows by itself when operations, grants or roles are added; an operation
// of the table without a sample request makes the file fail, naming it.
//
// - Samples: one request per operation, in test/authz/samples/<module>.ts (contract and how to
//   add some: test/authz/samples/types.ts). Every file there but types.ts is imported, and every
//   export whose name ends in `Samples` is merged; a duplicate operationId fails the file.
// - The world: a BP VAD, a BP IR whose BP is the VAD, an End Customer of each, two companies
//   of one organisation, the operator's company, and two companies related to nobody; the
//   organisation `org` and two organisations related to nobody. Every role of ROLES has a caller
//   (holding that role and `user`) where the role makes sense.
// - Ground truth: for each relation of src/authz/relations.ts, `PRODUCERS` places a target for
//   which the relation holds by construction of the world; `holdsInWorld` says which relations
//   hold for a placement, read from the facts the world was built from (not from the SQL).
// - Targets: `makeTarget` makes a target of each kind at a placement, by direct inserts.
// - Expected outcome, from the table: allowed (the operation's success status) when a held
//   grant's relation holds and its condition accepts the sample; else 403 when a held grant of
//   the operation or of its `visibleBy` operation reaches the target; else 404.
// - Out of scope: the unrelated company (organisation), and the companies (and sites) near the
//   caller's for which none of his relevant relations hold (an IR's customer seen from its BP's
//   customer...).
import { importCommands, imports } from '../../src/modules/imports/imports.tables.ts';
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { SKIP_GENERATED } from '../support/generated-suites.ts';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { joinCompanyLinks, joinInvitations } from '../../src/modules/admin/join/join.tables.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { sites as sitesTable } from '../../src/modules/admin/sites/sites.tables.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { catalogs, offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { newId } from '../../src/shared/ids.ts';
import { OPERATIONS } from '../../src/modules/index.ts';
import { fullPath, pathParents, type AnyOperation } from '../../src/http/operation.ts';
import { POLICY } from '../../src/authz/policy.ts';
import type { Grant } from '../../src/authz/grant.ts';
import { CONDITION_ERRORS, CONDITIONS, type ConditionInput } from '../../src/authz/conditions.ts';
import { ERRORS } from '../../src/errors/catalogue.ts';
import { callerParams, RELATION_NAMES, relationSql, type RelationName } from '../../src/authz/relations.ts';
import { ROLES, type Caller, type Role } from '../../src/authz/roles.ts';
import { ancestry, kindColumns, TARGETS, type TargetKindName } from '../../src/authz/targets.ts';
import { eq } from 'drizzle-orm';
import {
  COMPANY_KEYS,
  ORGANISATION_KEYS,
  SITES,
  type CompanyKey,
  type Ctx,
  type OrganisationKey,
  type Placement,
  type Req,
  type Sample,
  type SiteKey,
  type Violation,
  type WorldIds,
} from './samples/types.ts';
import { loadSamples } from './load-samples.ts';
import { rng } from '../support/fuzz/values.ts';
import { systems as systemsTable } from '../../src/modules/systems/systems.tables.ts';
import { systemPhoneNumbers } from '../../src/modules/systems/phone-numbers.tables.ts';
import { cloudPbxs } from '../../src/modules/pbx/pbx.tables.ts';
import { subscribers } from '../../src/modules/pbx/subscribers.tables.ts';
import { ddis } from '../../src/modules/pbx/ddis.tables.ts';
import { groups } from '../../src/modules/pbx/groups.tables.ts';
import { greetingFiles } from '../../src/modules/pbx/greetings.tables.ts';
import { recordings } from '../../src/modules/pbx/recordings.tables.ts';
import { ivrs } from '../../src/modules/pbx/ivrs.tables.ts';
import { devices } from '../../src/modules/pbx/devices.tables.ts';
import { externalTrunks } from '../../src/modules/pbx/trunks.tables.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { invoicingFiles } from '../../src/modules/billing/invoices.tables.ts';

// ---------------------------------------------------------------------------------------------
// The samples, one per operation, from test/authz/samples/*.ts.

const { samples: SAMPLES } = await loadSamples();

// ---------------------------------------------------------------------------------------------
// The world, declared before it is built: the cases are generated from this declaration.
// Its keys (COMPANY_KEYS, SITES, ORGANISATION_KEYS) are in ./samples/types.ts.

interface CompanyFacts {
  isBP?: boolean;
  bpType?: 'VAD' | 'IR';
  bp?: CompanyKey;
  org?: OrganisationKey;
}

const COMPANIES: Record<CompanyKey, CompanyFacts> = {
  hq: {}, // the operator's own company (superadmin, support, business_admin)
  vad: { isBP: true, bpType: 'VAD' },
  ir: { isBP: true, bpType: 'IR', bp: 'vad' },
  ecVad: { bp: 'vad' },
  ecIr: { bp: 'ir' },
  orgA: { org: 'org' },
  orgB: { org: 'org' },
  // A BP of the organisation, its BP IR (outside it) and their End Customers: the End Customers / BP
  // IR linked to BP companies of the organisation (customerOfOrganisationBp).
  orgBp: { isBP: true, bpType: 'VAD', org: 'org' },
  orgIr: { isBP: true, bpType: 'IR', bp: 'orgBp' },
  ecOrgBp: { bp: 'orgBp' },
  ecOrgIr: { bp: 'orgIr' },
  elsewhere: {}, // where the `any` relation is exercised
  unrelated: {}, // the out-of-scope company of every caller
};

/** Where `any` is exercised, and what is out of every scope, for each way of placing targets. */
const ELSEWHERE = { company: 'elsewhere', organisation: 'orgElsewhere' } as const;
const UNRELATED = { company: 'unrelated', organisation: 'orgUnrelated' } as const;

interface Home {
  company: CompanyKey;
  site?: SiteKey;
}

/**
 * Callers holding two roles whose grants name them together (document 1: "a user who is both
 * bp_admin or bp_finance and organization_admin"). They sit in a company of the organisation
 * that is no BP, so that what they reach as such is told apart from their own customers.
 */
const COMBOS = ['bp_finance+organization_admin', 'bp_admin+organization_admin'] as const;
/** Whom the cases are about: one caller per role, and one per combination of COMBOS. */
type Profile = Role | (typeof COMBOS)[number];
const PROFILES: readonly Profile[] = [...ROLES, ...COMBOS];

/** Where each role's caller sits: where the role makes sense. */
const HOMES: Record<Profile, Home> = {
  'bp_finance+organization_admin': { company: 'orgA' },
  'bp_admin+organization_admin': { company: 'orgA' },
  superadmin: { company: 'hq' },
  support: { company: 'hq' },
  business_admin: { company: 'hq' },
  bp_admin: { company: 'vad' },
  bp_finance: { company: 'vad' },
  organization_admin: { company: 'orgA' },
  company_admin: { company: 'ecVad' },
  site_admin: { company: 'ecIr', site: 'siteEcIr' },
  user: { company: 'ecVad' },
};

const callerRoles = (role: Profile): Role[] => [...new Set<Role>([...(role.split('+') as Role[]), 'user'])];

const placementLabel = (p: Placement) =>
  p.self
    ? 'himself'
    : p.organisation
      ? `organisation ${p.organisation}`
      : p.site
        ? `${p.company}/${p.site}`
        : `${p.company}`;
const placementKey = (p: Placement) =>
  `${p.company ?? ''}/${p.site ?? ''}/${p.self ? 'self' : ''}/${p.organisation ?? ''}`;

/** The columns of each kind of target that relations can speak of (checked against TARGETS). */
interface KindColumns {
  company: boolean;
  site: boolean;
  owner: boolean;
  organisation: boolean;
  /** The BP companies that may use it (external trunks' bp_ids): placed at a company, it names that company alone. */
  bps: boolean;
}
const cols = (c: Partial<KindColumns>): KindColumns => ({
  company: false,
  site: false,
  owner: false,
  organisation: false,
  bps: false,
  ...c,
});
/** Kinds placed at a company of the world: by their company, or by the BP companies they name. */
const atCompany = (kind: TargetKindName) => KIND_COLUMNS[kind].company || KIND_COLUMNS[kind].bps;
const KIND_COLUMNS: Record<TargetKindName, KindColumns> = {
  user: cols({ company: true, site: true, owner: true }),
  company: cols({ company: true }),
  application: cols({ company: true, owner: true }),
  site: cols({ company: true, site: true }), // a site target's site is itself
  organisation: cols({ organisation: true }), // no company: only `any` and `ownOrganisation` can hold
  joinLink: cols({ company: true }),
  joinInvitation: cols({ company: true }),
  // Offers and catalogs belong to no company nor organisation: only `any` reaches them.
  offer: cols({}),
  catalog: cols({}),
  subscription: cols({ company: true }),
  // A system belongs to the company it was created for and to its first site; its phone numbers
  // are where their system is (their relations read its columns).
  system: cols({ company: true, site: true }),
  systemPhoneNumber: cols({ company: true, site: true }),
  // A CloudPBX is where its system is (its relations read the system's columns).
  cloudpbx: cols({ company: true, site: true }),
  // The objects of a CloudPBX are where their PBX is.
  subscriber: cols({ company: true, site: true }),
  ddi: cols({ company: true, site: true }),
  device: cols({ company: true, site: true }),
  group: cols({ company: true, site: true }),
  greeting: cols({ company: true, site: true }),
  recording: cols({ company: true, site: true }),
  ivr: cols({ company: true, site: true }),
  // The invoicing module's files belong to the invoiced company.
  invoicingFile: cols({ company: true }),
  // An import's report and a commandId's results belong to the company imported into.
  importRequest: cols({ company: true }),
  importCommand: cols({ company: true }),
  // An external trunk belongs to no company: its bpIds name the BP companies that may use it.
  trunk: cols({ bps: true }),
};

function bpTree(c: CompanyKey): CompanyKey[] {
  // Companies linked to c by BP links, in either direction, transitively.
  const seen = new Set<CompanyKey>([c]);
  for (let grew = true; grew;) {
    grew = false;
    for (const k of COMPANY_KEYS) {
      const bp = COMPANIES[k].bp;
      if (!bp) continue;
      if (seen.has(k) !== seen.has(bp)) {
        seen.add(k);
        seen.add(bp);
        grew = true;
      }
    }
  }
  return [...seen];
}

/** Which relations hold between a caller sitting at `home` and a target at `p`: the ground truth. */
function holdsInWorld(rel: RelationName, home: Home, p: Placement, kind: TargetKindName): boolean {
  const c = KIND_COLUMNS[kind];
  const mine = COMPANIES[home.company];
  // Company-based relations are false for targets of no company (organisations).
  const theirs = c.company && p.company ? COMPANIES[p.company] : undefined;
  switch (rel) {
    case 'any':
      return true;
    case 'ownCompany':
      return theirs !== undefined && p.company === home.company;
    case 'ownBpCompany':
      return theirs !== undefined && mine.bp !== undefined && p.company === mine.bp;
    case 'customerOfOwnBp': {
      if (!theirs || !mine.isBP) return false;
      if (theirs.bp === home.company) return true;
      const via = theirs.bp ? COMPANIES[theirs.bp] : undefined;
      return mine.bpType === 'VAD' && via?.bpType === 'IR' && via.bp === home.company;
    }
    case 'companyOfOwnOrganisation':
      return theirs !== undefined && mine.org !== undefined && theirs.org === mine.org;
    case 'customerOfOrganisationBp': {
      if (!theirs?.bp || mine.org === undefined) return false;
      const bp = COMPANIES[theirs.bp];
      if (bp.isBP && bp.org === mine.org) return true;
      const vad = bp.bp ? COMPANIES[bp.bp] : undefined;
      return bp.bpType === 'IR' && vad?.isBP === true && vad.bpType === 'VAD' && vad.org === mine.org;
    }
    case 'ownOrganisation':
      return c.organisation && mine.org !== undefined && p.organisation === mine.org;
    case 'ownSite':
      return c.site && home.site !== undefined && p.site === home.site;
    case 'self':
      return c.owner && p.self === true;
    // A trunk at company X: bpIds = [X].
    case 'trunkOfOwnCompany':
      return c.bps && p.company === home.company;
    case 'trunkOfOwnBp':
      return c.bps && mine.bp !== undefined && p.company === mine.bp;
  }
}

/** For each relation: targets for which it holds, by construction of the world. */
const PRODUCERS: Record<RelationName, (home: Home, kind: TargetKindName) => Placement[]> = {
  any: (_h, kind) => [atCompany(kind) ? { company: ELSEWHERE.company } : { organisation: ELSEWHERE.organisation }],
  ownCompany: (h, kind) => (KIND_COLUMNS[kind].company ? [{ company: h.company }] : []),
  ownBpCompany: (h, kind) =>
    KIND_COLUMNS[kind].company && COMPANIES[h.company].bp ? [{ company: COMPANIES[h.company].bp! }] : [],
  customerOfOwnBp: (h, kind) => {
    const me = COMPANIES[h.company];
    if (!me.isBP || !KIND_COLUMNS[kind].company) return [];
    const direct = COMPANY_KEYS.filter((k) => COMPANIES[k].bp === h.company);
    const viaIr =
      me.bpType === 'VAD'
        ? COMPANY_KEYS.filter((k) => direct.some((d) => COMPANIES[d].bpType === 'IR' && COMPANIES[k].bp === d))
        : [];
    return [...direct, ...viaIr].map((company) => ({ company }));
  },
  companyOfOwnOrganisation: (h, kind) => {
    const org = COMPANIES[h.company].org;
    return org && KIND_COLUMNS[kind].company
      ? COMPANY_KEYS.filter((k) => COMPANIES[k].org === org).map((company) => ({ company }))
      : [];
  },
  customerOfOrganisationBp: (h, kind) => {
    const org = COMPANIES[h.company].org;
    if (!org || !KIND_COLUMNS[kind].company) return [];
    // The companies whose BP is a BP of the organisation, and the End Customers of the BP IR of its VADs.
    const orgBps = COMPANY_KEYS.filter((k) => COMPANIES[k].isBP && COMPANIES[k].org === org);
    const direct = COMPANY_KEYS.filter((k) => orgBps.some((b) => COMPANIES[k].bp === b));
    const irsOfVads = direct.filter(
      (d) => COMPANIES[d].bpType === 'IR' && COMPANIES[COMPANIES[d].bp!].bpType === 'VAD',
    );
    const viaIr = COMPANY_KEYS.filter((k) => irsOfVads.some((ir) => COMPANIES[k].bp === ir));
    return [...direct, ...viaIr].map((company) => ({ company }));
  },
  ownOrganisation: (h, kind) => {
    const org = COMPANIES[h.company].org;
    return org && KIND_COLUMNS[kind].organisation ? [{ organisation: org }] : [];
  },
  ownSite: (h, kind) => (KIND_COLUMNS[kind].site && h.site ? [{ company: h.company, site: h.site }] : []),
  self: (h, kind) => (KIND_COLUMNS[kind].owner ? [{ company: h.company, site: h.site, self: true }] : []),
  trunkOfOwnCompany: (h, kind) => (KIND_COLUMNS[kind].bps ? [{ company: h.company }] : []),
  trunkOfOwnBp: (h, kind) =>
    KIND_COLUMNS[kind].bps && COMPANIES[h.company].bp ? [{ company: COMPANIES[h.company].bp! }] : [],
};

/** The out-of-scope placement of every caller, for a kind. */
const unrelatedPlacement = (kind: TargetKindName): Placement =>
  atCompany(kind) ? { company: UNRELATED.company } : { organisation: UNRELATED.organisation };

/** Placements near the caller (his company, its BP links, his organisation) and the unrelated one. */
function nearbyPlacements(home: Home, kind: TargetKindName): Placement[] {
  const org = COMPANIES[home.company].org;
  if (!atCompany(kind)) return [...(org ? [{ organisation: org }] : []), unrelatedPlacement(kind)];
  const near = new Set<CompanyKey>([
    ...bpTree(home.company),
    ...COMPANY_KEYS.filter((k) => org && COMPANIES[k].org === org),
    UNRELATED.company,
  ]);
  const out: Placement[] = [];
  for (const company of near) {
    out.push({ company });
    if (KIND_COLUMNS[kind].site)
      for (const [site, of] of Object.entries(SITES)) if (of === company) out.push({ company, site: site as SiteKey });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The table's verdict.

function grantsOf(operationId: string): readonly Grant[] {
  const e = POLICY[operationId];
  return e?.kind === 'grants' ? e.grants : [];
}
const heldBy = (list: readonly Grant[], roles: readonly Role[]) =>
  list.filter((g) => g.roles.every((r) => roles.includes(r)));

/** The grants of the read operation of a kind: who sees a target of that kind (TARGETS.readBy). */
const readGrants = (kind: TargetKindName) => grantsOf(TARGETS[kind].readBy);

/**
 * The grants that matter to a caller for an operation: his own, those of its visibleBy, and
 * those of the read operation of the target's kind (who sees the target gets 403, not 404).
 */
function relevantGrants(operationId: string, roles: readonly Role[], kind?: TargetKindName): Grant[] {
  const e = POLICY[operationId];
  const vis = e?.kind === 'grants' && e.visibleBy ? grantsOf(e.visibleBy) : [];
  return [
    ...heldBy(grantsOf(operationId), roles),
    ...heldBy(vis, roles),
    ...(kind ? heldBy(readGrants(kind), roles) : []),
  ];
}

type Verdict = { status: 'allowed' } | { status: 403 | 404; code: number };

/** The parent of a target, for operations whose path names one: its kind and which relations hold on it. */
interface ParentView {
  kind: TargetKindName;
  holds: (r: RelationName) => boolean;
}

function verdict(
  operationId: string,
  roles: readonly Role[],
  kind: TargetKindName,
  holds: (r: RelationName) => boolean,
  input: ConditionInput,
  parent?: ParentView,
): Verdict {
  const own = heldBy(grantsOf(operationId), roles);
  if (own.some((g) => holds(g.relation) && (!g.condition || CONDITIONS[g.condition](input))))
    return { status: 'allowed' };
  // A grant reaching the target whose condition refused: that condition's error.
  const refusedBy = own.find((g) => holds(g.relation) && g.condition)?.condition;
  if (refusedBy) return { status: 403, code: ERRORS[CONDITION_ERRORS[refusedBy] ?? 'FORBIDDEN'].code };
  const visible =
    relevantGrants(operationId, roles, kind).some((g) => holds(g.relation)) ||
    (parent !== undefined && heldBy(readGrants(parent.kind), roles).some((g) => parent.holds(g.relation)));
  return visible ? { status: 403, code: ERROR_CODES[403] } : { status: 404, code: ERROR_CODES[404] };
}

/** Where the parent of a target at `p` sits: the company of a company-parented target, the organisation of a company. */
function parentView(op: AnyOperation, home: Home, p: Placement): ParentView | undefined {
  const parent = pathParents(op.target)[0];
  if (!parent) return undefined;
  if (parent.kind === 'company')
    return { kind: 'company', holds: (r) => holdsInWorld(r, home, { company: p.company }, 'company') };
  if (parent.kind === 'organisation') {
    // A company target's organisation: its own, or `orgElsewhere` where the sample puts it.
    const organisation: OrganisationKey = (p.company && COMPANIES[p.company].org) || ELSEWHERE.organisation;
    return { kind: 'organisation', holds: (r) => holdsInWorld(r, home, { organisation }, 'organisation') };
  }
  // A phone number's system sits where the number does.
  if (parent.kind === 'system') return { kind: 'system', holds: (r) => holdsInWorld(r, home, p, 'system') };
  // An object of a CloudPBX (a DDI number...): its PBX sits where the object does.
  if (parent.kind === 'cloudpbx') return { kind: 'cloudpbx', holds: (r) => holdsInWorld(r, home, p, 'cloudpbx') };
  throw new Error(`${op.operationId}: the matrix does not place parents of kind ${parent.kind} yet`);
}

/** A Caller as the conditions see it: roles and where he sits (or a twin of him in a company `like` one of the world), from the declaration of the world. */
function symbolicCaller(role: Profile, like?: CompanyKey): Caller {
  const h = HOMES[role];
  const c = COMPANIES[like ?? h.company];
  return {
    userId: `caller:${role}`,
    sessionId: '',
    appId: null,
    loginEmail: '',
    companyId: h.company,
    roles: callerRoles(role),
    siteId: h.site ?? null,
    organisationId: c.org ?? null,
    companyIsBP: c.isBP ?? false,
    companyBpType: c.bpType ?? null,
    companyBpId: c.bp ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Generation of the cases, from POLICY x OPERATIONS x ROLES.

const ERROR_CODES: Record<403 | 404, number> = { 403: 403001, 404: 404000 };
const successStatus = (op: AnyOperation) => op.successStatus ?? (op.method === 'POST' ? 201 : 200);

interface Case {
  name: string;
  run: () => Promise<void>;
}

const problems: string[] = [];
const cases: Case[] = [];

// The budget (CI's 30 minutes; the fuzz test's budget works the same way). All the cases took 93 s
// of CI's run of 2026-12-02, some 9,900 of them. MATRIX_BUDGET cases run (default 4,000), chosen
// in three tiers, each in a random order seeded by MATRIX_SEED (printed in the suite's name; the
// same seed runs the same cases): one case of each outcome of each operation (its success, each
// refusal status, each rule of the service), then one of each outcome of each operation for each
// role, then any case, until the budget is spent. What differs within the last tier is the target's
// placement; successive runs cover it, and MATRIX_BUDGET=all runs every case (README, Tests).
const MATRIX_SEED = process.env.MATRIX_SEED ? Number(process.env.MATRIX_SEED) : Math.floor(Math.random() * 2 ** 31);
const MATRIX_BUDGET = process.env.MATRIX_BUDGET === 'all' ? Infinity : Number(process.env.MATRIX_BUDGET ?? 4000);
const budgetLabel =
  MATRIX_BUDGET === Infinity ? 'every case' : `at most ${MATRIX_BUDGET} cases, MATRIX_SEED=${MATRIX_SEED}`;

/** The tiers of the budget, from a case's name (`operation / role / ... -> answer`). */
const TIERS: ((c: Case) => string)[] = [
  (c) => `${c.name.split(' / ')[0]} -> ${c.name.split(' -> ').at(-1)}`,
  (c) => `${c.name.split(' / ', 2).join(' / ')} -> ${c.name.split(' -> ').at(-1)}`,
  (c) => c.name,
];

/** The cases this run runs, in their generated order (see the budget above). */
function withinBudget(all: Case[]): Case[] {
  if (all.length <= MATRIX_BUDGET) return all;
  const random = rng(MATRIX_SEED);
  const order = all.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  const kept = new Set<number>();
  for (const key of TIERS) {
    const seen = new Set([...kept].map((i) => key(all[i])));
    for (const i of order) {
      if (kept.size >= MATRIX_BUDGET) break;
      if (seen.has(key(all[i]))) continue;
      seen.add(key(all[i]));
      kept.add(i);
    }
  }
  return all.filter((_, i) => kept.has(i));
}
let counter = 0;
const next = () => ++counter;

/** The context of one case's request. */
const ctxOf = (role: Profile, caller: MadeUser = w.callers[role], placement?: Placement): Ctx => ({
  t: w.t,
  caller,
  role,
  n: next(),
  world: w.ids,
  placement,
});

function routeRegex(op: AnyOperation): RegExp[] {
  return [op.path, ...(op.aliases ?? [])].map(
    (p) =>
      new RegExp(
        `^${fullPath(p)
          .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
          .replace(/:[A-Za-z0-9_]+/g, '[^/]+')
          .replace(/\*/g, '.*')}$`,
      ),
  );
}

function checkRoute(op: AnyOperation, req: Req): void {
  const path = req.url.split('?')[0];
  expect(req.method, `the sample of ${op.operationId} uses the method of its declaration`).toBe(op.method);
  expect(
    routeRegex(op).some((r) => r.test(path)),
    `the sample of ${op.operationId} (${req.url}) calls its route ${fullPath(op.path)}`,
  ).toBe(true);
}

async function call(
  op: AnyOperation,
  req: Req,
  token: string | undefined,
  validate = true,
): Promise<LightMyRequestResponse> {
  checkRoute(op, req);
  const opts: InjectOptions = {
    method: req.method,
    url: req.url,
    headers: { ...(token ? bearer(token) : {}), ...req.headers },
    ...(req.payload !== undefined ? { payload: req.payload as InjectOptions['payload'] } : {}),
  };
  return validate ? w.t.inject(opts) : w.t.app.inject(opts);
}

function expectOutcome(res: LightMyRequestResponse, status: number, code?: number): void {
  expect(res.statusCode, res.body.slice(0, 400)).toBe(status);
  if (code !== undefined) expect(res.json().errorDetailsCode, res.body.slice(0, 400)).toBe(code);
}

function generate(): void {
  const declared = new Map(OPERATIONS.map((o) => [o.operationId, o]));
  for (const name of Object.keys(SAMPLES))
    if (!declared.has(name) || !POLICY[name])
      problems.push(`sample ${name} is for no operation of POLICY and OPERATIONS`);
  for (const operationId of Object.keys(POLICY)) {
    const op = declared.get(operationId);
    if (!op) continue; // in the table, not served yet
    const entry = POLICY[operationId];
    const sample = SAMPLES[operationId];
    if (!sample) {
      problems.push(`operation ${operationId} has no sample request in test/authz/samples/ (see types.ts there)`);
      continue;
    }
    const expectedType =
      entry.kind === 'public'
        ? ['public']
        : entry.kind === 'authenticated'
          ? ['authenticated']
          : op.target
            ? ['target']
            : ['list', 'targetless'];
    if (!expectedType.includes(sample.type)) {
      problems.push(
        `the sample of ${operationId} is '${sample.type}' but the operation is ${entry.kind}${op.target ? ` with a ${op.target.kind} target` : ''}`,
      );
      continue;
    }
    if (sample.type === 'target' && sample.kind && sample.kind !== op.target?.kind) {
      problems.push(
        `the sample of ${operationId} expects a ${sample.kind} target but the operation's target is a ${op.target?.kind}`,
      );
      continue;
    }
    switch (sample.type) {
      case 'public':
        for (const role of ROLES) {
          cases.push({
            name: `${operationId} / ${role} / without token -> ${successStatus(op)}`,
            run: async () => {
              const res = await call(op, await sample.request(ctxOf(role)), undefined, !sample.skipDocumentCheck);
              expectOutcome(res, successStatus(op));
            },
          });
        }
        break;
      case 'authenticated':
        cases.push({
          name: `${operationId} / no token -> 401`,
          run: async () => expectOutcome(await call(op, sample.request(ctxOf('user')), undefined), 401, 401500),
        });
        for (const role of ROLES) {
          cases.push({
            name: `${operationId} / ${role} / signed in -> ${successStatus(op)}`,
            run: async () => {
              const caller = w.callers[role];
              const token = sample.consumesToken ? await w.t.login(caller.email, PASSWORD) : caller.token;
              expectOutcome(await call(op, sample.request(ctxOf(role, caller)), token), successStatus(op));
            },
          });
        }
        break;
      case 'targetless':
        for (const role of PROFILES) {
          const allowed = heldBy(grantsOf(operationId), callerRoles(role)).length > 0;
          cases.push({
            name: `${operationId} / ${role} / ${allowed ? `holds a grant -> ${successStatus(op)}` : 'holds no grant -> 403'}`,
            run: async () => {
              const res = await call(op, await sample.request(ctxOf(role)), w.callers[role].token);
              expectOutcome(res, allowed ? successStatus(op) : 403, allowed ? undefined : ERROR_CODES[403]);
            },
          });
        }
        break;
      case 'list':
        generateList(op, sample);
        break;
      case 'target':
        generateTarget(op, sample);
        generateParentBinding(op, sample);
        generateSecond(op, sample);
        break;
    }
  }
}

interface Scoped {
  label: string;
  placement: Placement;
  /** The relation the placement was produced for (in scope), checked against the world. */
  producedFor?: RelationName;
}

function scopedPlacements(
  operationId: string,
  role: Profile,
  kind: TargetKindName,
  relevantOverride?: readonly Grant[],
): Scoped[] {
  const home = HOMES[role];
  const relevant = relevantOverride ?? relevantGrants(operationId, callerRoles(role), kind);
  const relations = RELATION_NAMES.filter((r) => relevant.some((g) => g.relation === r));
  const out: Scoped[] = [];
  const seen = new Set<string>();
  for (const rel of relations) {
    for (const p of PRODUCERS[rel](home, kind)) {
      if (seen.has(placementKey(p))) continue;
      seen.add(placementKey(p));
      out.push({ label: `in scope (${rel}: ${placementLabel(p)})`, placement: p, producedFor: rel });
    }
  }
  for (const p of nearbyPlacements(home, kind)) {
    if (seen.has(placementKey(p))) continue;
    // Out of scope: none of the caller's relevant relations holds, `any` aside.
    if (relations.some((r) => r !== 'any' && holdsInWorld(r, home, p, kind))) continue;
    seen.add(placementKey(p));
    out.push({ label: `out of scope (${placementLabel(p)})`, placement: p });
  }
  return out;
}

function generateTarget(op: AnyOperation, sample: Extract<Sample, { type: 'target' }>): void {
  const operationId = op.operationId;
  const kind = op.target!.kind;
  const conditions = [...new Set(grantsOf(operationId).flatMap((g) => (g.condition ? [g.condition] : [])))];
  for (const c of conditions)
    if (!sample.violations?.[c])
      problems.push(`the sample of ${operationId} does not say how to violate the condition ${c}`);

  for (const role of PROFILES) {
    const roles = callerRoles(role);
    const home = HOMES[role];
    const caller = symbolicCaller(role);
    for (const s of scopedPlacements(operationId, role, kind)) {
      const holds = (r: RelationName) => holdsInWorld(r, home, s.placement, kind);
      const baseTargetRoles: Role[] = s.placement.self ? roles : ['user'];
      const variants: { suffix: string; violation?: Violation }[] = [{ suffix: '' }];
      // A variant per condition of a grant that reaches this target: the condition made to fail,
      // and made to hold when the world's caller does not meet it (`satisfy`).
      for (const g of heldBy(grantsOf(operationId), roles)) {
        if (!g.condition || !holds(g.relation)) continue;
        for (const [how, v] of [
          ['violating', sample.violations?.[g.condition]],
          ['satisfying', sample.satisfy?.[g.condition]],
        ] as const) {
          if (!v) continue;
          if (v.targetRoles && (s.placement.self || kind !== 'user')) continue;
          if (v.callerLike && (s.placement.company !== home.company || s.placement.self || s.placement.site)) continue;
          const suffix = `, ${how} ${g.condition}${v.callerLike ? ` (caller in a company like ${v.callerLike})` : ''}`;
          if (variants.some((x) => x.suffix === suffix)) continue;
          variants.push({ suffix, violation: v });
        }
      }
      for (const { suffix, violation } of variants) {
        const targetRoles = violation?.targetRoles ?? baseTargetRoles;
        const body = violation?.body;
        const like = violation?.callerLike;
        const symbolicTarget =
          kind === 'user' ? { roles: targetRoles } : kind === 'site' ? { companyId: s.placement.company } : {};
        // The twin sits in a company like `like`, the target in it: the relations are those of
        // that company to itself (his own company; an organisation only if `like` has one).
        const holdsHere = like
          ? (r: RelationName) => holdsInWorld(r, { ...home, company: like }, { ...s.placement, company: like }, kind)
          : holds;
        const v = verdict(
          operationId,
          roles,
          kind,
          holdsHere,
          {
            caller: like ? symbolicCaller(role, like) : caller,
            target: symbolicTarget,
            body: body ?? sampleBody(sample),
          },
          parentView(op, home, s.placement),
        );
        const refusal = v.status === 'allowed' ? sample.businessRefusal?.(s.placement) : undefined;
        const status = refusal?.status ?? (v.status === 'allowed' ? successStatus(op) : v.status);
        const code = refusal?.code ?? (v.status === 'allowed' ? undefined : v.code);
        cases.push({
          name: `${operationId} / ${role} / ${s.label}${suffix} -> ${status}${refusal ? ` (rule of the service, ${refusal.code})` : ''}`,
          run: async () => {
            if (s.producedFor)
              expect(holdsInWorld(s.producedFor, home, s.placement, kind), `world: ${s.producedFor} should hold`).toBe(
                true,
              );
            // A changing operation on the caller himself (his company, site, organisation) works
            // on a twin of the caller, made with the target. A refusal (403, 404) changes nothing,
            // so it is asked on the placement's shared target: made once instead of per case (the
            // matrix's time, CI's 30 minutes); should a refusal wrongly act, this case fails anyway.
            const { id, actor } = await w.target(kind, s.placement, role, {
              fresh: (sample.fresh && v.status === 'allowed') || like !== undefined,
              roles: targetRoles,
              like,
            });
            const res = await call(op, await sample.request(id, ctxOf(role, actor, s.placement), body), actor.token);
            expectOutcome(res, status, code);
          },
        });
      }
    }
  }
}

/**
 * Issue 6, point 1: a child that does not belong to the parent its path names gives 404, even to
 * a superadmin. The case makes the target where `any` is exercised and calls it with the path's
 * parent segment replaced by the id of the world's unrelated parent of the same kind.
 */
function generateParentBinding(op: AnyOperation, sample: Extract<Sample, { type: 'target' }>): void {
  const parent = pathParents(op.target)[0];
  if (!parent) return;
  const kind = op.target!.kind;
  const placement = PRODUCERS.any(HOMES.superadmin, kind)[0];
  cases.push({
    name: `${op.operationId} / superadmin / a ${kind} under another ${parent.kind} than its own -> 404`,
    run: async () => {
      const { id, actor } = await w.target(kind, placement, 'superadmin', { fresh: sample.fresh, roles: ['user'] });
      const req = await sample.request(id, ctxOf('superadmin', actor, placement), undefined);
      // For a system (or CloudPBX) parent: another one at the same place (the child is not one of its own).
      const other =
        parent.kind === 'company'
          ? w.ids.companies[UNRELATED.company]
          : parent.kind === 'organisation'
            ? w.ids.organisations[UNRELATED.organisation]
            : parent.kind === 'system' || parent.kind === 'cloudpbx'
              ? (await w.target(parent.kind, placement, 'superadmin', { fresh: true, roles: ['user'] })).id
              : undefined;
      if (!other) throw new Error(`no unrelated ${parent.kind} in the world`);
      // The segment of the parameter in the declared path is the one replaced.
      const segments = fullPath(op.path).split('/');
      const at = segments.indexOf(`:${parent.field}`);
      const [path, query] = req.url.split('?');
      const parts = path.split('/');
      expect(
        at > 0 && parts.length === segments.length,
        `${op.operationId}: the sample's path matches its declaration`,
      ).toBe(true);
      parts[at] = other;
      const res = await call(op, { ...req, url: `${parts.join('/')}${query ? `?${query}` : ''}` }, actor.token);
      expectOutcome(res, 404, ERROR_CODES[404]);
    },
  });
}

/**
 * Issue 6, point 1: the second resources of an operation (a site's destination company, the
 * user a template is applied to). With a target the caller may act on, each second resource is
 * placed in and out of his reach: allowed when a grant of the policy's `second` holds on it,
 * 403 when he can read it (its kind's read operation), else 404.
 */
function generateSecond(op: AnyOperation, sample: Extract<Sample, { type: 'target' }>): void {
  const entry = POLICY[op.operationId];
  if (entry?.kind !== 'grants' || !op.second) return;
  const kind = op.target!.kind;
  for (const [name, ref] of Object.entries(op.second)) {
    const s2 = sample.second?.[name];
    if (!s2) {
      problems.push(`the sample of ${op.operationId} has no request for its second resource '${name}' (sample.second)`);
      continue;
    }
    const secondGrants = entry.second?.[name] ?? [];
    for (const role of PROFILES) {
      const roles = callerRoles(role);
      const home = HOMES[role];
      const caller = symbolicCaller(role);
      // A target the role may act on, unconditionally, away from his home (no twin needed), or his home when the sample says so.
      const allowedAt = (p: Placement) =>
        verdict(
          op.operationId,
          roles,
          kind,
          (r) => holdsInWorld(r, home, p, kind),
          { caller, target: kind === 'site' ? { companyId: p.company } : {}, body: sampleBody(sample) },
          parentView(op, home, p),
        ).status === 'allowed';
      const candidates =
        s2.mainAt === 'home'
          ? [{ placement: { company: home.company } as Placement }]
          : scopedPlacements(op.operationId, role, kind).filter(
              (s) => s.placement.company !== home.company && !s.placement.self,
            );
      const main = candidates.find((s) => allowedAt(s.placement))?.placement;
      if (!main) continue;
      const relevant = [...heldBy(secondGrants, roles), ...heldBy(readGrants(ref.kind), roles)];
      for (const s of scopedPlacements(op.operationId, role, ref.kind, relevant)) {
        // A second resource that `when` leaves out (the site's own company): not a move.
        if (ref.when && ref.kind === 'company' && s.placement.company === main.company) continue;
        const holds = (r: RelationName) => holdsInWorld(r, home, s.placement, ref.kind);
        const status = heldBy(secondGrants, roles).some((g) => holds(g.relation))
          ? successStatus(op)
          : heldBy(readGrants(ref.kind), roles).some((g) => holds(g.relation))
            ? 403
            : 404;
        cases.push({
          name: `${op.operationId} / ${role} / its ${name} ${s.label} -> ${status}`,
          run: async () => {
            const { id, actor } = await w.target(kind, main, role, { fresh: sample.fresh, roles: ['user'] });
            // The caller's own company and his BP are the world's (a fresh one would belong to a twin of him).
            const own =
              ref.kind === 'company' &&
              (s.placement.company === home.company || s.placement.company === COMPANIES[home.company].bp);
            const second = await w.target(ref.kind, s.placement, role, {
              fresh: !s.placement.self && !own,
              roles: ['user'],
            });
            const res = await call(op, await s2.request(id, second.id, ctxOf(role, actor, main)), actor.token);
            expectOutcome(
              res,
              status,
              status === 403 ? ERROR_CODES[403] : status === 404 ? ERROR_CODES[404] : undefined,
            );
          },
        });
      }
    }
  }
}

/** The body the sample sends by default, for the conditions that read it. */
function sampleBody(sample: Extract<Sample, { type: 'target' }>): unknown {
  if ('defaultBody' in sample) return sample.defaultBody;
  const ctx: Ctx = { t: undefined as never, caller: undefined as never, role: 'user', n: 0, world: undefined as never };
  try {
    const req = sample.request('x', ctx);
    if (req instanceof Promise) {
      req.catch(() => undefined);
      return undefined;
    }
    return req.payload;
  } catch {
    return undefined; // the request needs the world: conditions that read the body need defaultBody
  }
}

function generateList(op: AnyOperation, sample: Extract<Sample, { type: 'list' }>): void {
  const operationId = op.operationId;
  if (grantsOf(operationId).some((g) => g.condition)) {
    problems.push(`${operationId}: a list filtered by a conditional grant is not covered by the matrix`);
    return;
  }
  for (const role of PROFILES) {
    const roles = callerRoles(role);
    const home = HOMES[role];
    const held = heldBy(grantsOf(operationId), roles);
    if (held.length === 0) {
      cases.push({
        name: `${operationId} / ${role} / holds no grant -> 403`,
        run: async () =>
          expectOutcome(await call(op, sample.request(0, ctxOf(role)), w.callers[role].token), 403, ERROR_CODES[403]),
      });
      continue;
    }
    for (const s of scopedPlacements(operationId, role, sample.kind)) {
      const listed = held.some((g) => holdsInWorld(g.relation, home, s.placement, sample.kind));
      cases.push({
        name: `${operationId} / ${role} / ${s.label} -> ${listed ? 'listed' : 'not listed'}`,
        run: async () => {
          const { id } = await w.target(sample.kind, s.placement, role, { fresh: false, roles: ['user'] });
          const seen = await w.listed(op, sample, role);
          expect(seen.has(id), `${placementLabel(s.placement)} item ${id}`).toBe(listed);
        },
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The world, built once.

/** A target made for a case, and who calls on it (the role's caller, or a twin of him). */
interface Made {
  id: string;
  actor: MadeUser;
}

interface MakeOpts {
  /** The caller's role: where he sits (HOMES). */
  role: Profile;
  /** A target of the case's own, that the operation may change or delete. */
  fresh: boolean;
  /** The roles of a user target. */
  roles: Role[];
  /** The caller's twin sits in a new company like this one of the world, the target in it (Violation.callerLike). */
  like?: CompanyKey;
}

interface World {
  t: TestApp;
  ids: WorldIds;
  companies: Record<CompanyKey, string>;
  sites: Record<SiteKey, string>;
  organisations: Record<OrganisationKey, string>;
  callers: Record<Profile, MadeUser>;
  /** A target of a kind at a placement for a role's case: cached per placement unless fresh. */
  target(
    kind: TargetKindName,
    p: Placement,
    role: Profile,
    o: { fresh: boolean; roles: Role[]; like?: CompanyKey },
  ): Promise<Made>;
  listed(op: AnyOperation, sample: Extract<Sample, { type: 'list' }>, role: Profile): Promise<Set<string>>;
}

let w: World;

async function buildWorld(t: TestApp): Promise<World> {
  const orgIds = {} as Record<OrganisationKey, string>;
  for (const k of ORGANISATION_KEYS) {
    orgIds[k] = newId();
    await t.db.insert(organisations).values({ id: orgIds[k], name: `Matrix ${k}` });
  }
  const companyIds = {} as Record<CompanyKey, string>;
  /** A company with the facts of `k` (BP links to the world's companies, organisation), or overridden ones. */
  const companyLike = (k: CompanyKey, o: { bpId?: string; organisationId?: string } = {}) => {
    const f = COMPANIES[k];
    return makeCompany(t, {
      name: `Matrix ${k} ${next()}`,
      isBP: f.isBP ?? false,
      bpType: f.bpType ?? null,
      bpId: o.bpId ?? (f.bp ? companyIds[f.bp] : null),
      organisationId: o.organisationId ?? (f.org ? orgIds[f.org] : null),
    });
  };
  // Parents first: COMPANY_KEYS lists every BP before its customers.
  for (const k of COMPANY_KEYS) companyIds[k] = await companyLike(k);
  const sites = {} as Record<SiteKey, string>;
  for (const [s, c] of Object.entries(SITES)) sites[s as SiteKey] = await makeSite(t, companyIds[c]);

  const makeCaller = (
    role: Profile,
    at: { companyId: string; siteId?: string } = {
      companyId: companyIds[HOMES[role].company],
      siteId: HOMES[role].site ? sites[HOMES[role].site] : undefined,
    },
  ) => makeUser(t, at.companyId, role.split('+') as Role[], { siteId: at.siteId });
  const callers = {} as Record<Profile, MadeUser>;
  for (const role of PROFILES) callers[role] = await makeCaller(role);
  const owners = {} as Record<CompanyKey, MadeUser>;
  for (const k of COMPANY_KEYS) owners[k] = await makeUser(t, companyIds[k]);

  /** A twin of a role's caller sitting in company `companyId` (with a site of it when he has one). */
  async function twinIn(role: Profile, companyId: string): Promise<MadeUser> {
    return makeCaller(role, { companyId, siteId: HOMES[role].site ? await makeSite(t, companyId) : undefined });
  }

  /** A system of the placement's company, at its site when it has one (linked to it). */
  async function insertSystem(p: Placement, type: 'undefined' | 'cloud_pbx' = 'undefined'): Promise<string> {
    const id = newId();
    const siteId = p.site ? sites[p.site] : null;
    await t.db.insert(systemsTable).values({
      id,
      name: `Matrix system ${id}`,
      pbxId: `PBX${id}`,
      companyId: companyIds[need(p.company, 'company', p)],
      siteId,
      siteIds: siteId ? [siteId] : [],
      jidPbxagent: `pbxagent_${id}@localhost`,
      jidPbxagentPassword: 'secret',
      jidPbxpcg: `pbxpcg_${id}@localhost`,
      jidPbxpcgPassword: 'secret',
      type,
    });
    return id;
  }

  async function insertUser(p: Placement, roles: Role[]): Promise<string> {
    const id = newId();
    await t.db.insert(users).values({
      id,
      companyId: companyIds[p.company!],
      loginEmail: `matrix-${id}@example.com`,
      passwordHash: 'not-a-hash: never signs in',
      firstName: 'Target',
      lastName: `T${id.slice(-6)}`,
      roles,
      siteId: p.site ? sites[p.site] : null,
    });
    return id;
  }

  async function createApplication(owner: MadeUser): Promise<string> {
    const res = await t.inject({
      method: 'POST',
      url: '/api/svc/applications/v1.0/applications',
      headers: bearer(owner.token),
      payload: { name: `Target app ${next()}` },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  }

  const need = <T>(x: T | undefined, what: string, p: Placement): T => {
    if (x === undefined) throw new Error(`a placement without ${what}: ${JSON.stringify(p)}`);
    return x;
  };

  /**
   * The registry of target kinds: a new target of each kind at a placement, by direct inserts
   * (applications through the API). When the relation that places it is the caller's identity
   * (his company, his BP, his site, his organisation) and the target is fresh (the operation
   * may change or delete it), the target is a twin and so is the caller: the world stays intact.
   */
  const makeTarget: Record<TargetKindName, (p: Placement, o: MakeOpts) => Promise<Made>> = {
    async user(p, o) {
      const caller = callers[o.role];
      if (!p.self) return { id: await insertUser(p, o.roles), actor: caller };
      // A changing operation on the caller himself works on a fresh twin of the caller.
      const actor = o.fresh ? await makeCaller(o.role) : caller;
      return { id: actor.id, actor };
    },
    async company(p, o) {
      const company = need(p.company, 'company', p);
      const caller = callers[o.role];
      const home = HOMES[o.role];
      if (o.like) {
        // The caller's own company, made like another company of the world, with his twin in it.
        const id = await companyLike(o.like);
        return { id, actor: await twinIn(o.role, id) };
      }
      if (!o.fresh) return { id: companyIds[company], actor: caller };
      if (company === home.company) {
        const id = await companyLike(company);
        return { id, actor: await twinIn(o.role, id) };
      }
      if (company === COMPANIES[home.company].bp) {
        const id = await companyLike(company);
        return { id, actor: await twinIn(o.role, await companyLike(home.company, { bpId: id })) };
      }
      return { id: await companyLike(company), actor: caller };
    },
    async application(p, o) {
      const caller = callers[o.role];
      return { id: await createApplication(p.self ? caller : owners[need(p.company, 'company', p)]), actor: caller };
    },
    async site(p, o) {
      const company = need(p.company, 'company', p);
      const caller = callers[o.role];
      if (!p.site) return { id: await makeSite(t, companyIds[company]), actor: caller };
      if (!o.fresh) return { id: sites[p.site], actor: caller };
      // A fresh site at the world's site S: another site of S's company, with the caller's
      // twin at it when S is his own.
      const id = await makeSite(t, companyIds[company]);
      return {
        id,
        actor:
          p.site === HOMES[o.role].site
            ? await makeCaller(o.role, { companyId: companyIds[company], siteId: id })
            : caller,
      };
    },
    async organisation(p, o) {
      const org = need(p.organisation, 'organisation', p);
      const caller = callers[o.role];
      if (!o.fresh) return { id: orgIds[org], actor: caller };
      const id = newId();
      await t.db.insert(organisations).values({ id, name: `Matrix ${org} ${next()}` });
      const home = HOMES[o.role];
      if (org !== COMPANIES[home.company].org) return { id, actor: caller };
      return { id, actor: await twinIn(o.role, await companyLike(home.company, { organisationId: id })) };
    },
    async joinLink(p, o) {
      const id = newId();
      await t.db
        .insert(joinCompanyLinks)
        .values({ id, companyId: companyIds[need(p.company, 'company', p)], description: `Matrix link ${next()}` });
      return { id, actor: callers[o.role] };
    },
    async joinInvitation(p, o) {
      const id = newId();
      await t.db.insert(joinInvitations).values({
        id,
        companyId: companyIds[need(p.company, 'company', p)],
        email: `invited-${id}@example.com`,
        tokenHash: `matrix-${id}`,
        expirationDate: new Date(Date.now() + 7 * 24 * 3600_000),
      });
      return { id, actor: callers[o.role] };
    },
    async offer(_p, o) {
      const id = newId();
      await t.db.insert(offers).values({ id, name: `Matrix offer ${next()}` });
      return { id, actor: callers[o.role] };
    },
    async catalog(_p, o) {
      const id = newId();
      await t.db.insert(catalogs).values({ id, name: `Matrix catalog ${id}` });
      return { id, actor: callers[o.role] };
    },
    async subscription(p, o) {
      // A subscription of the placement's company to an offer of its own (never the default one).
      const offerId = newId();
      await t.db.insert(offers).values({ id: offerId, name: `Matrix offer ${next()}`, businessModel: 'nb_users' });
      const id = newId();
      // Violation.callerLike: in the caller's own company made like another one, his twin in it.
      const companyId = o.like ? await companyLike(o.like) : companyIds[need(p.company, 'company', p)];
      await t.db.insert(subscriptions).values({ id, companyId, offerId, status: 'active', maxNumberUsers: 10 });
      return { id, actor: o.like ? await twinIn(o.role, companyId) : callers[o.role] };
    },
    async system(p, o) {
      return { id: await insertSystem(p), actor: callers[o.role] };
    },
    async importRequest(p, o) {
      const id = newId();
      const companyId = companyIds[need(p.company, 'company', p)];
      await t.db.insert(imports).values({
        id,
        companyId,
        userId: callers[o.role].id,
        displayName: 'Matrix',
        route: 'import',
        mode: 'user',
        status: 'Terminated',
        options: { delimiter: ',', comment: '%', noemails: false, nostrict: false },
        startTime: new Date(),
      });
      return { id, actor: callers[o.role] };
    },
    async importCommand(p, o) {
      const id = newId();
      const companyId = companyIds[need(p.company, 'company', p)];
      await t.db.insert(importCommands).values({
        id,
        companyId,
        userId: callers[o.role].id,
        report: { details: 'matrix', status: 'success' },
        updatedAt: new Date(),
      });
      return { id, actor: callers[o.role] };
    },
    async invoicingFile(p, o) {
      const id = newId();
      const companyId = companyIds[need(p.company, 'company', p)];
      const fileName = `matrix-${id}.csv`;
      await t.db.insert(invoicingFiles).values({
        id,
        companyId,
        billingPeriod: '2026-11',
        invoiceType: 'services',
        fileType: 'INV',
        path: `${companyId}/2026-11/services/${fileName}`,
        fileName,
        invoiceCreationDate: '2026-11-01',
        lines: 0,
        size: 3,
        data: Buffer.from('a\r\n'),
      });
      return { id, actor: callers[o.role] };
    },
    async cloudpbx(p, o) {
      const id = await insertSystem(p, 'cloud_pbx');
      const tenant = await portsOf(t.deps).voice.createTenant({ companyId: companyIds[p.company!], name: 'Matrix' });
      await t.db.insert(cloudPbxs).values({ id, vcpInstanceId: 'vcp-eu-1', vcpTenantId: tenant.id });
      return { id, actor: callers[o.role] };
    },
    // The objects of a CloudPBX: each in a CloudPBX of its own at the placement.
    async subscriber(p, o) {
      const cloudPbxId = (await makeTarget.cloudpbx(p, o)).id;
      const userId = await insertUser({ company: p.company, site: p.site }, ['user']);
      const id = newId();
      const n = 1000 + next();
      await t.db.insert(subscribers).values({
        id,
        cloudPbxId,
        userId,
        shortNumber: String(n),
        shortNumberValue: n,
        vcpSubscriberId: `vcp-${id}`,
      });
      return { id, actor: callers[o.role] };
    },
    async ddi(p, o) {
      const cloudPbxId = (await makeTarget.cloudpbx(p, o)).id;
      const id = newId();
      const number = `+3319${String(next()).padStart(7, '0')}`;
      await t.db.insert(ddis).values({ id, cloudPbxId, number, numberE164: number, country: 'FRA' });
      return { id, actor: callers[o.role] };
    },
    async device(p, o) {
      const cloudPbxId = (await makeTarget.cloudpbx(p, o)).id;
      const id = newId();
      await t.db.insert(devices).values({
        id,
        cloudPbxId,
        description: `Matrix device ${id}`,
        deviceTypeId: 999999,
        sipUsername: `matrix-${id}`,
        adminPassword: 'not-sealed: never read',
      });
      return { id, actor: callers[o.role] };
    },
    async group(p, o) {
      const cloudPbxId = (await makeTarget.cloudpbx(p, o)).id;
      const id = newId();
      const n = 5000 + next();
      const shortNumber = String(n);
      await t.db
        .insert(groups)
        .values({ id, cloudPbxId, name: `Matrix group ${n}`, type: 'hunting_group', shortNumber, shortNumberValue: n });
      return { id, actor: callers[o.role] };
    },
    async greeting(p, o) {
      const cloudPbxId = (await makeTarget.cloudpbx(p, o)).id;
      const id = newId();
      await t.db.insert(greetingFiles).values({
        id,
        cloudPbxId,
        scope: 'company',
        greetingId: 'music_on_hold',
        fileName: `matrix-${id}.wav`,
        storageKey: `matrix/${id}.wav`,
        mediaType: 'audio/wav',
        size: 0,
        duration: 0,
      });
      return { id, actor: callers[o.role] };
    },
    async recording(p, o) {
      const cloudPbxId = (await makeTarget.cloudpbx(p, o)).id;
      const id = newId();
      await t.db.insert(recordings).values({
        id,
        cloudPbxId,
        date: new Date(),
        direction: 'in',
        otherNumber: '+33100000000',
        storageKey: `matrix/${id}.wav`,
        mediaType: 'audio/wav',
        size: 0,
        duration: 0,
      });
      return { id, actor: callers[o.role] };
    },
    async ivr(p, o) {
      const cloudPbxId = (await makeTarget.cloudpbx(p, o)).id;
      const id = newId();
      await t.db.insert(ivrs).values({ id, cloudPbxId, kind: 'welcome', name: `Matrix welcome ${next()}` });
      return { id, actor: callers[o.role] };
    },
    // An external trunk that the placement's company alone may use (bpIds = [it]).
    async trunk(p, o) {
      const id = newId();
      await t.db.insert(externalTrunks).values({
        id,
        name: `Matrix trunk ${next()}`,
        bpIds: [companyIds[need(p.company, 'company', p)]],
        vcpInstanceId: 'vcp-eu-1',
        trunkType: 'bp_trunk',
      });
      return { id, actor: callers[o.role] };
    },
    async systemPhoneNumber(p, o) {
      const systemId = await insertSystem(p);
      const id = newId();
      await t.db.insert(systemPhoneNumbers).values({
        id,
        systemId,
        pbxId: `PBX${systemId}`,
        shortNumber: '1000',
        internalNumber: '1000',
      });
      return { id, actor: callers[o.role] };
    },
  };

  const cache = new Map<string, Promise<string>>();
  const lists = new Map<string, Promise<Set<string>>>();

  function target(
    kind: TargetKindName,
    p: Placement,
    role: Profile,
    o: { fresh: boolean; roles: Role[]; like?: CompanyKey },
  ): Promise<Made> {
    if (o.like && kind !== 'company' && kind !== 'subscription')
      throw new Error(
        `callerLike: the matrix places a twin caller for company and subscription targets only, not ${kind}`,
      );
    if (o.fresh) return makeTarget[kind](p, { role, ...o });
    // Shared targets: one per kind and placement (and caller, for his own things), called on
    // by the role's caller himself (only fresh targets have twins of him).
    const key = `${kind}|${placementKey(p)}|${p.self ? role : ''}|${o.roles.join(',')}`;
    if (!cache.has(key))
      cache.set(
        key,
        makeTarget[kind](p, { role, ...o }).then((m) => m.id),
      );
    return cache.get(key)!.then((id) => ({ id, actor: callers[role] }));
  }

  async function readList(
    op: AnyOperation,
    sample: Extract<Sample, { type: 'list' }>,
    role: Profile,
  ): Promise<Set<string>> {
    // Every item this caller's cases look for exists before the list is read.
    for (const s of scopedPlacements(op.operationId, role, sample.kind))
      await target(sample.kind, s.placement, role, { fresh: false, roles: ['user'] });
    const ids = new Set<string>();
    for (let offset = 0; ;) {
      const res = await call(op, sample.request(offset, ctxOf(role)), callers[role].token);
      expectOutcome(res, 200);
      const body = res.json();
      const page = sample.ids(body);
      page.forEach((id) => ids.add(id));
      offset += page.length;
      if (page.length === 0 || offset >= (sample.total ? sample.total(body) : body.total)) break;
    }
    return ids;
  }

  const ids: WorldIds = { companies: companyIds, sites, organisations: orgIds, callers, owners };
  w = {
    t,
    ids,
    companies: companyIds,
    sites,
    organisations: orgIds,
    callers,
    target,
    listed(op, sample, role) {
      const key = `${op.operationId}|${role}`;
      if (!lists.has(key)) lists.set(key, readList(op, sample, role));
      return lists.get(key)!;
    },
  };
  return w;
}

generate();

beforeAll(async () => {
  if (SKIP_GENERATED) return;
  const t = await createTestApp();
  w = await buildWorld(t);
});
afterAll(() => w?.t.close());

describe('the matrix covers the policy table', { skip: SKIP_GENERATED }, () => {
  it('every operation of POLICY and OPERATIONS has a sample request of the right type', () => {
    expect(problems).toEqual([]);
  });

  it('every role has a caller, every relation a producer, every target kind its columns', () => {
    expect(Object.keys(HOMES).sort()).toEqual([...PROFILES].sort());
    expect(Object.keys(PRODUCERS).sort()).toEqual([...RELATION_NAMES].sort());
    expect(Object.keys(KIND_COLUMNS).sort()).toEqual(Object.keys(TARGETS).sort());
    for (const kind of Object.keys(TARGETS) as TargetKindName[]) {
      // The columns its relations read, on its own row or on an ancestor's (a phone number's system).
      const c = ancestry(kind);
      const has = (k: keyof typeof c) => c[k] !== undefined;
      expect({
        kind,
        company: has('company'),
        site: has('site'),
        owner: has('owner'),
        organisation: has('organisation'),
        bps: has('bps'),
      }).toEqual({ kind, ...KIND_COLUMNS[kind] });
    }
  });

  it('each producer places targets for which its relation holds in the world, for every caller and kind', () => {
    for (const role of PROFILES) {
      for (const kind of Object.keys(KIND_COLUMNS) as TargetKindName[]) {
        for (const rel of RELATION_NAMES) {
          for (const p of PRODUCERS[rel](HOMES[role], kind))
            expect(holdsInWorld(rel, HOMES[role], p, kind), `${rel} ${role} ${kind} ${placementLabel(p)}`).toBe(true);
        }
        // The unrelated company (organisation) is out of every scope but `any`.
        for (const rel of RELATION_NAMES)
          if (rel !== 'any')
            expect(holdsInWorld(rel, HOMES[role], unrelatedPlacement(kind), kind), `${rel} ${role} ${kind}`).toBe(
              false,
            );
      }
    }
  });

  it('makeTarget places every kind so that the relations SQL agrees with the ground truth (fresh or not)', async () => {
    const t = w.t;
    // An actor is read once: the callers of non-fresh targets are the same few users throughout.
    const callers = new Map<string, Promise<Caller>>();
    const callerOf = (u: MadeUser): Promise<Caller> => {
      let c = callers.get(u.id);
      if (!c) callers.set(u.id, (c = readCaller(u)));
      return c;
    };
    const readCaller = async (u: MadeUser): Promise<Caller> => {
      const [user] = await t.db.select().from(users).where(eq(users.id, u.id));
      const [company] = await t.db.select().from(companies).where(eq(companies.id, user.companyId));
      return {
        userId: user.id,
        sessionId: '',
        appId: null,
        loginEmail: user.loginEmail,
        companyId: user.companyId,
        roles: user.roles,
        siteId: user.siteId,
        organisationId: company.organisationId,
        companyIsBP: company.isBP,
        companyBpType: company.bpType,
        companyBpId: company.bpId,
      };
    };
    const mismatches: string[] = [];
    let checked = 0;
    for (const kind of Object.keys(TARGETS) as TargetKindName[]) {
      const target = TARGETS[kind];
      for (const role of PROFILES) {
        const home = HOMES[role];
        const placements = new Map<string, Placement>();
        for (const p of [...RELATION_NAMES.flatMap((r) => PRODUCERS[r](home, kind)), ...nearbyPlacements(home, kind)])
          placements.set(placementKey(p), p);
        for (const p of placements.values()) {
          for (const fresh of [false, true]) {
            const made = await w.target(kind, p, role, { fresh, roles: ['user'] });
            const c = callerParams(await callerOf(made.actor));
            const select = Object.fromEntries(RELATION_NAMES.map((r) => [r, relationSql(r, c, kindColumns(kind))]));
            const [row] = (await t.db.select(select).from(target.table).where(eq(target.id, made.id))) as Record<
              RelationName,
              unknown
            >[];
            if (!row) {
              mismatches.push(`${kind} at ${placementLabel(p)} for ${role}: not found`);
              continue;
            }
            checked++;
            for (const r of RELATION_NAMES) {
              const expected = holdsInWorld(r, home, p, kind);
              if (Boolean(row[r]) !== expected)
                mismatches.push(
                  `${kind} at ${placementLabel(p)}${fresh ? ' (fresh)' : ''} for ${role}: ${r} is ${!expected} in SQL`,
                );
            }
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThan(Object.keys(TARGETS).length * ROLES.length * 4);
  });

  it('the world in the database is the declared one', async () => {
    const c = w.companies;
    const byId = new Map((await w.t.db.select().from(companies)).map((r) => [r.id, r]));
    for (const k of COMPANY_KEYS) {
      const f = COMPANIES[k];
      const row = byId.get(c[k])!;
      expect({ k, isBP: row.isBP, bpType: row.bpType, bpId: row.bpId, organisationId: row.organisationId }).toEqual({
        k,
        isBP: f.isBP ?? false,
        bpType: f.bpType ?? null,
        bpId: f.bp ? c[f.bp] : null,
        organisationId: f.org ? w.organisations[f.org] : null,
      });
    }
    const siteRows = new Map((await w.t.db.select().from(sitesTable)).map((r) => [r.id, r.companyId]));
    for (const [s, of] of Object.entries(SITES))
      expect({ s, company: siteRows.get(w.sites[s as SiteKey]) }).toEqual({ s, company: c[of] });
  });
});

describe(`authorisation matrix (${budgetLabel})`, { skip: SKIP_GENERATED }, () => {
  for (const c of withinBudget(cases)) it(c.name, c.run);
});
