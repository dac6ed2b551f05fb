// Issue 23, point 3 (document 3, Import): "for every existing operation the import will call
// (create, update and delete user, assign and unassign a licence), a caller who gets 403 or 404
// over HTTP gets the same refusal from the job path, and a permitted one gets the same result".
// Each case runs once over HTTP (the caller's token) and once through runCommand (the same user's
// id), each on its own fresh target made identically, and compares the outcomes (status,
// errorCode, errorDetailsCode and errorDetails, or the result projected as the HTTP answer's
// `data`) once the values generated for each path (ids, e-mails) are replaced by their names.
//
// Were runCommand to skip the authorisation (or to authorise someone else than the caller it
// names), the job path would succeed where HTTP answers 403 or 404, and every matrix test of a
// caller other than superadmin would fail (checked by running the job path as the superadmin:
// 31 of the 53 tests fail); were it to skip the input checks, the 400 cases would. The expected
// HTTP statuses are written down too, so that the matrices cannot silently lose their refusals.
import { after, before, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, PASSWORD, type MadeUser } from '../support/factories.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
// From the modules' faces, as the import module will take them.
import { createUser, deleteUser, updateUser } from '../../src/modules/admin/users/users.api.ts';
import { assignUserLicence, unassignUserLicence } from '../../src/modules/commerce/commerce.api.ts';
import { assignLicence } from '../../src/modules/commerce/licences.service.ts';
import { runCommand } from '../../src/http/run-command.ts';
import { errorOutcome } from '../../src/errors/handler.ts';
import { fullPath, type AnyOperation } from '../../src/http/operation.ts';
import { project } from '../../src/http/format.ts';
import { newId } from '../../src/shared/ids.ts';

let t: TestApp;
let bp: string, ec1: string, ec2: string, other: string, site1: string, site2: string;
const sub: Record<string, string> = {};
const callers = {} as Record<CallerName, MadeUser>;
let passwordHash: string;
let terminated: MadeUser;

type CallerName = 'superadmin' | 'bp_admin' | 'ec1_company_admin' | 'ec1_site_admin' | 'ec1_user' | 'other_admin';
const CALLERS: [CallerName, string][] = [
  ['superadmin', 'a superadmin'],
  ['bp_admin', "the BP's bp_admin"],
  ['ec1_company_admin', 'a company_admin of EC1'],
  ['ec1_site_admin', 'a site_admin of EC1 (site S1)'],
  ['ec1_user', 'a plain user of EC1'],
  ['other_admin', 'a company_admin of an unrelated company'],
];

/** One call's input, with the values generated for it (replaced by their names before comparing). */
interface Made {
  params?: Record<string, string>;
  body?: unknown;
  gen: Record<string, string>;
  /** Checks the stored state after the call (a dropped field was not stored...). */
  after?: () => Promise<void>;
}
interface Outcome {
  status: number;
  error?: { errorCode: number; errorDetailsCode: number; errorDetails: unknown };
  result?: unknown;
}

/** A target user inserted directly (no sign-in: only callers need a token). */
async function targetUser(companyId: string, siteId: string | null = null): Promise<string> {
  const id = newId();
  await t.db.insert(users).values({
    id,
    companyId,
    loginEmail: `t${id}@example.com`,
    passwordHash,
    firstName: 'Target',
    lastName: 'User',
    roles: ['user'],
    siteId,
    creationDate: t.clock.now(),
    lastUpdateDate: t.clock.now(),
  });
  return id;
}

async function subscription(
  companyId: string,
  status: 'creating' | 'active' | 'terminated' = 'active',
): Promise<string> {
  const offerId = newId();
  await t.db.insert(offers).values({ id: offerId, name: `Offer ${offerId}`, businessModel: 'nb_users' });
  const id = newId();
  await t.db.insert(subscriptions).values({ id, companyId, offerId, status, maxNumberUsers: 1000 });
  return id;
}

const replaceAll = (v: unknown, gen: Record<string, string>): unknown => {
  let s = JSON.stringify(v) ?? 'null';
  for (const [name, value] of Object.entries(gen)) s = s.split(value).join(`<${name}>`);
  return JSON.parse(s);
};
const errorOf = (b: Record<string, unknown>) => ({
  errorCode: b.errorCode as number,
  errorDetailsCode: b.errorDetailsCode as number,
  errorDetails: b.errorDetails,
});
const successStatus = (op: AnyOperation) => op.successStatus ?? (op.method === 'POST' ? 201 : 200);

async function overHttp(op: AnyOperation, token: string, m: Made): Promise<Outcome> {
  const url = fullPath(op.path).replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(m.params![k]!));
  const payload = m.body === undefined ? {} : { payload: m.body as object };
  const res = await t.inject({ method: op.method, url, headers: bearer(token), ...payload });
  const json = res.json() as Record<string, unknown>;
  if (res.statusCode >= 400) return { status: res.statusCode, error: errorOf(json) };
  return { status: res.statusCode, result: op.envelope === 'data' ? json.data : json };
}

async function fromJob(op: AnyOperation, callerId: string, m: Made): Promise<Outcome> {
  try {
    const r = await runCommand(t.deps, op, { params: m.params, body: m.body }, { callerId, log: t.app.log });
    // The HTTP answer's projection: a single resource is answered at its declaration's default level.
    const f = op.formats;
    const shaped = op.envelope === 'data' && f ? project(r as Record<string, unknown>, f, f.default ?? 'full') : r;
    return { status: successStatus(op), result: JSON.parse(JSON.stringify(shaped)) as unknown };
  } catch (err) {
    const b = errorOutcome(err);
    return { status: b.errorCode, error: errorOf(b as unknown as Record<string, unknown>) };
  }
}

/** The same case over HTTP and from a job, each on a target of its own; both outcomes, normalised. */
async function both(op: AnyOperation, caller: { id: string; token: string }, make: () => Promise<Made>) {
  const out: Outcome[] = [];
  for (const path of ['http', 'job'] as const) {
    const m = await make();
    const o = path === 'http' ? await overHttp(op, caller.token, m) : await fromJob(op, caller.id, m);
    await m.after?.();
    // The id a creation generates is named too.
    const created = (o.result as { id?: unknown } | undefined)?.id;
    const gen = typeof created === 'string' ? { ...m.gen, created } : m.gen;
    out.push(replaceAll(o, gen) as Outcome);
  }
  return { http: out[0]!, job: out[1]! };
}

const email = () => `imp-${newId()}@import.example`;
const newUserBody = (e: string, extra: Record<string, unknown> = {}) => ({
  loginEmail: e,
  password: PASSWORD,
  firstName: 'Imported',
  lastName: 'Line',
  ...extra,
});

// ---------------------------------------------------------------------------------------------
// The matrix: each operation, each caller, each target placement; the HTTP status expected.
type Placement = 'own' | 'EC1' | 'EC1/S1' | 'EC2' | 'unrelated' | 'missing' | 'EC1 user + BP licence';

const userTarget = async (p: Placement): Promise<Made> => {
  if (p === 'missing') {
    const id = newId();
    return { params: { userId: id }, gen: { target: id } };
  }
  const company = { EC1: ec1, 'EC1/S1': ec1, EC2: ec2, unrelated: other }[p as 'EC1'];
  const id = await targetUser(company, p === 'EC1/S1' ? site1 : null);
  return { params: { userId: id }, gen: { target: id } };
};
const licenceTarget =
  (held: boolean) =>
  async (p: Placement): Promise<Made> => {
    const own = p === 'EC1 user + BP licence' ? 'EC1' : p;
    const m = await userTarget(own);
    const company = { EC1: ec1, 'EC1/S1': ec1, EC2: ec2, unrelated: other, missing: ec1 }[own as 'EC1'];
    const subscriptionId = p === 'EC1 user + BP licence' ? sub.bp! : sub[company]!;
    if (held && p !== 'missing')
      await assignLicence(t.db, { id: m.params!.userId!, companyId: company }, subscriptionId, t.clock.now());
    return { ...m, params: { ...m.params, subscriptionId } };
  };

interface Spec {
  op: AnyOperation;
  route: string;
  placements: Placement[];
  make: (p: Placement) => Promise<Made>;
  /** The HTTP statuses, a line per caller (CALLERS), a status per placement. */
  expected: string;
}
const USER_PLACES: Placement[] = ['EC1', 'EC1/S1', 'EC2', 'unrelated', 'missing'];
const LICENCE_PLACES: Placement[] = [...USER_PLACES, 'EC1 user + BP licence'];
const SPECS: Spec[] = [
  {
    op: createUser,
    route: 'POST /users',
    placements: ['own', 'EC1', 'EC1/S1', 'EC2', 'unrelated', 'missing'],
    make: async (p) => {
      const e = email();
      const companyId = { own: undefined, EC1: ec1, 'EC1/S1': ec1, EC2: ec2, unrelated: other }[p as 'EC1'];
      const missing = p === 'missing' ? newId() : undefined;
      const extra = { companyId: missing ?? companyId, ...(p === 'EC1/S1' ? { siteId: site1 } : {}) };
      return { body: newUserBody(e, extra), gen: { email: e, ...(missing ? { target: missing } : {}) } };
    },
    expected: `
      201 201 201 201 201 404
      201 201 201 201 404 404
      201 201 201 404 404 404
      403 403 403 404 404 404
      404 404 404 404 404 404
      201 404 404 404 201 404`,
  },
  {
    op: updateUser,
    route: 'PUT /users/{userId}',
    placements: USER_PLACES,
    make: async (p) => ({ ...(await userTarget(p)), body: { firstName: 'Renamed', language: 'fr' } }),
    expected: `
      200 200 200 200 404
      200 200 200 404 404
      200 200 404 404 404
      404 200 404 404 404
      404 404 404 404 404
      404 404 404 200 404`,
  },
  {
    op: deleteUser,
    route: 'DELETE /users/{userId}',
    placements: USER_PLACES,
    make: userTarget,
    expected: `
      200 200 200 200 404
      200 200 200 404 404
      200 200 404 404 404
      404 200 404 404 404
      404 404 404 404 404
      404 404 404 200 404`,
  },
  {
    op: assignUserLicence,
    route: 'POST /users/{userId}/profiles/subscriptions/{subscriptionId}',
    placements: LICENCE_PLACES,
    make: licenceTarget(false),
    expected: `
      201 201 201 201 404 201
      201 201 201 404 404 201
      201 201 404 404 404 404
      404 403 404 404 404 404
      404 404 404 404 404 404
      404 404 404 201 404 404`,
  },
  {
    op: unassignUserLicence,
    route: 'DELETE /users/{userId}/profiles/subscriptions/{subscriptionId}',
    placements: LICENCE_PLACES,
    make: licenceTarget(true),
    expected: `
      200 200 200 200 404 200
      200 200 200 404 404 200
      200 200 404 404 404 404
      404 403 404 404 404 404
      404 404 404 404 404 404
      404 404 404 200 404 404`,
  },
];

before(async () => {
  t = await createTestApp();
  bp = await makeCompany(t, { isBP: true, bpType: 'IR' });
  ec1 = await makeCompany(t, { bpId: bp });
  ec2 = await makeCompany(t, { bpId: bp });
  other = await makeCompany(t);
  site1 = await makeSite(t, ec1);
  site2 = await makeSite(t, ec2);
  for (const c of [bp, ec1, ec2, other]) sub[c] = await subscription(c);
  sub.bp = sub[bp]!;
  Object.assign(callers, {
    superadmin: await makeUser(t, t.defaultCompanyId, ['superadmin']),
    bp_admin: await makeUser(t, bp, ['bp_admin']),
    ec1_company_admin: await makeUser(t, ec1, ['company_admin']),
    ec1_site_admin: await makeUser(t, ec1, ['site_admin'], { siteId: site1 }),
    ec1_user: await makeUser(t, ec1),
    other_admin: await makeUser(t, other, ['company_admin']),
  });
  // The factories' hash of PASSWORD, for the target users (one argon2 hash less).
  passwordHash = (await row(eq(users.id, callers.ec1_user.id)))!.passwordHash;
  terminated = await makeUser(t, ec1, ['company_admin']);
  await t.db.update(users).set({ isTerminated: true }).where(eq(users.id, terminated.id));
});
after(() => t.close());

for (const spec of SPECS) {
  describe(`doc 3 import: ${spec.op.operationId} from a job is authorised and validated exactly as ${spec.route}`, () => {
    const lines = spec.expected.trim().split(/\s*\n\s*/);
    CALLERS.forEach(([name, label], c) => {
      const want = lines[c]!.split(' ');
      const cells = spec.placements.map((p, i) => `${p} ${want[i] ?? '?'}`).join(', ');
      it(`${label}: the same refusal (403/404) or the same result on both paths (${cells})`, async () => {
        const got: number[] = [];
        for (const p of spec.placements) {
          const { http, job } = await both(spec.op, callers[name], () => spec.make(p));
          expect(job, `${spec.op.operationId} / ${name} / ${p}: job path vs HTTP`).toEqual(http);
          got.push(http.status);
        }
        expect(got.join(' '), `${spec.op.operationId} / ${name}: HTTP statuses`).toBe(lines[c]);
      });
    });
  });
}

describe('doc 3 import: a caller whose account is terminated (users.isTerminated) is refused the same way on both paths', () => {
  for (const spec of SPECS)
    it(`${spec.op.operationId}: HTTP answers 401 to his token; the job acting for him gets the same errorCode and errorDetailsCode`, async () => {
      const { http, job } = await both(spec.op, terminated, () => spec.make('EC1'));
      expect(http.status, JSON.stringify(http)).toBe(401);
      expect(job, `${spec.op.operationId}: job path vs HTTP`).toEqual(http);
    });
});

// ---------------------------------------------------------------------------------------------
// Input: the same checks, coercions and refusals on both paths.
const row = async (where: ReturnType<typeof eq>) => (await t.db.select().from(users).where(where))[0];
const createAs = (body: (e: string) => Record<string, unknown>, check?: (e: string) => Promise<void>) => async () => {
  const e = email();
  return { body: { companyId: ec1, ...body(e) }, gen: { email: e }, after: check && (() => check(e)) };
};
// Fields naming the world's ids are given as a function: the world is made after the tables are read.
type Fields = Record<string, unknown> | (() => Record<string, unknown>);
const fields = (f: Fields) => (typeof f === 'function' ? f() : f);
const updateAs = (body: Fields, check?: (id: string) => Promise<void>) => async () => {
  const m = await userTarget('EC1');
  return { ...m, body: fields(body), after: check && (() => check(m.params!.userId!)) };
};
const licenceAs = (subscriptionId: () => Promise<string>) => async () => {
  const m = await userTarget('EC1');
  const id = await subscriptionId();
  return { params: { ...m.params, subscriptionId: id }, gen: { ...m.gen, subscription: id } };
};
/** A createUser case: a new user's body with these fields, and what must be stored. */
const nu = (extra: Fields, check?: (r: typeof users.$inferSelect | undefined) => void) =>
  createAs((e) => newUserBody(e, fields(extra)), check && (async (e) => check(await row(eq(users.loginEmail, e)))));
const INPUT_CASES: Record<string, [AnyOperation, string, () => Promise<Made>]> = {
  'createUser with a malformed loginEmail': [createUser, '400 400000', createAs(() => newUserBody('not-an-email'))],
  'createUser with a weak password': [createUser, '400 400002', nu({ password: 'weakpass' })],
  'createUser without a password': [createUser, '400 400000', createAs((e) => ({ loginEmail: e }))],
  'createUser with null where it is not allowed': [createUser, '400 400000', nu({ firstName: null })],
  'createUser with a list where one value is taken': [createUser, '400 400000', nu({ lastName: ['x'] })],
  'createUser with a number where text is taken (firstName: 42, stored as "42")': [
    createUser,
    '201',
    nu({ firstName: 42 }, (r) => expect(r?.firstName).toBe('42')),
  ],
  'createUser with one role given alone, not in a list (a list of one)': [
    createUser,
    '201',
    nu({ roles: 'company_admin' }, (r) => expect(r?.roles).toContain('company_admin')),
  ],
  "createUser giving a role above the caller's own": [createUser, '403 403002', nu({ roles: ['superadmin'] })],
  'createUser with a loginEmail already taken': [
    createUser,
    '409 409001',
    createAs(() => newUserBody(callers.ec1_user.email)),
  ],
  'createUser with a siteId of another company (references)': [createUser, '400 400005', nu(() => ({ siteId: site2 }))],
  'createUser with unknown fields (isTerminated, favourite): dropped, never stored': [
    createUser,
    '201',
    nu({ isTerminated: true, favourite: 'blue' }, (r) => expect(r?.isTerminated).toBe(false)),
  ],
  'updateUser with fields its body does not take (companyId, isTerminated): dropped, never stored': [
    updateUser,
    '200',
    updateAs(
      () => ({ firstName: 'Kept', companyId: other, isTerminated: true }),
      async (id) => {
        const r = await row(eq(users.id, id));
        expect([r?.companyId, r?.isTerminated, r?.firstName]).toEqual([ec1, false, 'Kept']);
      },
    ),
  ],
  'updateUser with a malformed loginEmail': [updateUser, '400 400000', updateAs({ loginEmail: 'nope' })],
  'updateUser with a weak password': [updateUser, '400 400002', updateAs({ password: 'short' })],
  'updateUser with a userId longer than the schema takes': [
    updateUser,
    '400 400000',
    async () => ({ params: { userId: 'x'.repeat(65) }, body: { firstName: 'X' }, gen: {} }),
  ],
  "assignUserLicence of another company's subscription": [
    assignUserLicence,
    '400 400650',
    licenceAs(async () => sub[ec2]!),
  ],
  'assignUserLicence of a terminated subscription': [
    assignUserLicence,
    '409 409650',
    licenceAs(() => subscription(ec1, 'terminated')),
  ],
  'assignUserLicence of a subscription that does not exist': [
    assignUserLicence,
    '404 404000',
    licenceAs(async () => newId()),
  ],
};

describe("doc 3 import: a job's input is checked exactly as the HTTP request's (same 400, same coercions, unknown fields dropped)", () => {
  for (const [name, [op, want, make]] of Object.entries(INPUT_CASES))
    it(`${name}: ${want} on both paths`, async () => {
      const [status, code] = want.split(' ').map(Number);
      const caller = op === assignUserLicence ? callers.superadmin : callers.ec1_company_admin;
      const { http, job } = await both(op, caller, make);
      expect(job, `${name}: job path vs HTTP`).toEqual(http);
      expect(http.status, JSON.stringify(http)).toBe(status);
      if (code) expect(http.error?.errorDetailsCode).toBe(code);
    });
});

describe("doc 3 import: a command run in a line's transaction sees what the line made before it", () => {
  it('createUser then updateUser of that user, in one transaction: both run, and both roll back together', async () => {
    const loginEmail = `tx-${newId()}@example.com`;
    const log = t.app.log;
    const callerId = callers.ec1_company_admin.id;
    await t.db
      .transaction(async (tx) => {
        const made = await runCommand(
          t.deps,
          createUser,
          { body: { loginEmail, password: PASSWORD, firstName: 'A' } },
          { callerId, db: tx, log },
        );
        const id = (made as { id: string }).id;
        // Authorised on the transaction: the user it just made is found (not 404), and on the
        // embedded database the authorising statement does not wait for the session the line holds.
        const updated = await runCommand(
          t.deps,
          updateUser,
          { params: { userId: id }, body: { firstName: 'B' } },
          { callerId, db: tx, log },
        );
        expect((updated as { firstName: string }).firstName).toBe('B');
        throw new Error('roll back');
      })
      .catch((e: unknown) => {
        if (!(e instanceof Error) || e.message !== 'roll back') throw e;
      });
    expect(await t.db.select().from(users).where(eq(users.loginEmail, loginEmail))).toEqual([]);
  });
});
