// Issue 23, point 1, parent chains: "a target kind names its parent kind and the column that points
// to it; a declaration's target may sit at any depth, and the authorising statement walks the chain
// in the same one statement (a child of another parent is 404 at every level). Relations of a child
// kind read the columns of the ancestor that holds them: no child table copies a company, site or
// organisation column for authorisation."
// Three test kinds made here (pbx > subscriber > device): only the pbx has company and site columns,
// only the subscriber an owner; a device has no column of its own that relations read.
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { pgTable, text } from 'drizzle-orm/pg-core';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { statementsOf } from '../support/statements.ts';
import { ancestry, checkTargetChains, kindColumns, registerTargets, targetKind } from '../../src/authz/targets.ts';
import { TARGETS, type TargetKind, type TargetKindName } from '../../src/authz/targets.ts';
import { registerPolicy } from '../../src/authz/policy.ts';
import { grant, grants } from '../../src/authz/grant.ts';
import { installErrorHandling, errorOutcome } from '../../src/errors/handler.ts';
import { ErrorSchema } from '../../src/http/schemas.ts';
import { defineOperation, registerOperation, type AnyOperation } from '../../src/http/operation.ts';
import { runCommand } from '../../src/http/run-command.ts';
import type { Executor } from '../../src/db/client.ts';

const testPbxs = pgTable('test_pbxs', {
  id: text('id').primaryKey(),
  companyId: text('company_id').notNull(),
  siteId: text('site_id'),
});
const testSubscribers = pgTable('test_subscribers', {
  id: text('id').primaryKey(),
  pbxId: text('pbx_id').notNull(),
  userId: text('user_id'),
});
const testDevices = pgTable('test_devices', {
  id: text('id').primaryKey(),
  subscriberId: text('subscriber_id').notNull(),
  label: text('label'),
});

registerTargets('chains-test', {
  testPbx: targetKind(testPbxs, { cols: { company: testPbxs.companyId, site: testPbxs.siteId }, readBy: 'getTestPbx' }),
  testSubscriber: targetKind(testSubscribers, {
    cols: { owner: testSubscribers.userId },
    readBy: 'getTestSubscriber',
    parent: { kind: 'testPbx', column: testSubscribers.pbxId },
  }),
  testDevice: targetKind(testDevices, {
    cols: {},
    readBy: 'getTestDevice',
    parent: { kind: 'testSubscriber', column: testDevices.subscriberId },
  }),
});
const K = (name: string) => name as TargetKindName;

const admins = [
  grant('superadmin', 'any'),
  grant('bp_admin', 'customerOfOwnBp'),
  grant('company_admin', 'ownCompany'),
  grant('site_admin', 'ownSite'),
];
const readers = grants([...admins, grant('user', 'self')]);
registerPolicy('chains-test', {
  getTestPbx: grants(admins),
  getTestSubscriber: readers,
  getTestDevice: readers,
  getTestDeviceById: readers,
  listTestDevices: readers,
  updateTestDevice: grants(admins),
  updateTestDeviceById: grants(admins),
});

type Row = Record<string, unknown>;
interface Cmd {
  target: Row;
  parents: Record<string, Row>;
  db: Executor;
  scope: SQL | undefined;
}
const Answer = Type.Object({
  id: Type.String(),
  via: Type.Array(Type.String()),
  pbxCompany: Type.Optional(Type.String()),
  label: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
const answer = (c: Cmd) => ({
  id: String(c.target.id),
  via: [c.parents.testSubscriber?.id, c.parents.testPbx?.id].filter(Boolean).map(String),
  ...(c.parents.testPbx ? { pbxCompany: String(c.parents.testPbx.companyId) } : {}),
});
const op = (def: Record<string, unknown>): AnyOperation =>
  defineOperation({ tag: 'Test', summary: 'chains', envelope: 'data', response: Answer, ...def } as never);
const body = Type.Object({ label: Type.String() });
const update = async (c: Cmd, input: { body: { label: string } }) => {
  await c.db
    .update(testDevices)
    .set(input.body)
    .where(eq(testDevices.id, String(c.target.id)));
  return { ...answer(c), label: input.body.label };
};
/** An operation on one target of `kind`, whose id is the path's last parameter; a PUT sets a device's label. */
const one = (operationId: string, kind: string, path: string, parents?: Record<string, string>) => {
  const put = operationId.startsWith('update');
  const field = path.slice(path.lastIndexOf(':') + 1);
  const command = put ? update : async (c: Cmd) => answer(c);
  return op({
    operationId,
    method: put ? 'PUT' : 'GET',
    path,
    ...(put ? { body } : {}),
    target: { kind, from: 'params', field, parents },
    command,
  });
};
const DEVICE_PATH = '/test/pbxs/:pbxId/subscribers/:subscriberId/devices/:deviceId';
const underBoth = { testSubscriber: 'subscriberId', testPbx: 'pbxId' }; // nearest first
const OPS = {
  getTestPbx: one('getTestPbx', 'testPbx', '/test/pbxs/:pbxId'),
  getTestSubscriber: one('getTestSubscriber', 'testSubscriber', '/test/pbxs/:pbxId/subscribers/:subscriberId', {
    testPbx: 'pbxId',
  }),
  getTestDevice: one('getTestDevice', 'testDevice', DEVICE_PATH, underBoth),
  updateTestDevice: one('updateTestDevice', 'testDevice', DEVICE_PATH, underBoth),
  getTestDeviceById: one('getTestDeviceById', 'testDevice', '/test/devices/:deviceId'),
  updateTestDeviceById: one('updateTestDeviceById', 'testDevice', '/test/devices/:deviceId'),
  listTestDevices: op({
    operationId: 'listTestDevices',
    method: 'GET',
    path: '/test/devices',
    envelope: 'list',
    scope: 'testDevice',
    response: Type.Object({ id: Type.String() }),
    command: async (c: Cmd) => {
      const rows = await c.db.select({ id: testDevices.id }).from(testDevices).where(c.scope).orderBy(testDevices.id);
      return { items: rows, total: rows.length, limit: 100, offset: 0 };
    },
  }),
};

// Pbx P1: the End Customer's, at its site; P3: the End Customer's, at no site; P2: another company's.
// S1 (owned by `owner`) under P1, S3 (owned by `other_user`) under P3, S2 (no owner) under P2.
const DEVICES = { D1: ['P1', 'S1'], D3: ['P3', 'S3'], D2: ['P2', 'S2'] } as const;
type Device = keyof typeof DEVICES;
const CALLERS = ['superadmin', 'bp_admin', 'ec_admin', 'site_admin', 'owner', 'other_user', 'other_admin'] as const;
type CallerName = (typeof CALLERS)[number];
// Statuses per caller, in the order of CALLERS.
const READ: Record<Device, number[]> = {
  D1: [200, 200, 200, 200, 200, 404, 404],
  D3: [200, 200, 200, 404, 404, 200, 404],
  D2: [200, 404, 404, 404, 404, 404, 200],
};
const UPDATE: Record<Device, number[]> = {
  D1: [200, 200, 200, 200, 403, 404, 404],
  D3: [200, 200, 200, 404, 404, 403, 404],
  D2: [200, 404, 404, 404, 404, 404, 200],
};

let t: TestApp;
let app: FastifyInstance;
const who = {} as Record<CallerName, MadeUser>;
let ec: string;
const devicePath = (d: string, s: string, p: string) => `/test/pbxs/${p}/subscribers/${s}/devices/${d}`;
const call = (caller: CallerName, method: 'GET' | 'PUT', url: string) =>
  app.inject({
    method,
    url: `/api/svc${url}`,
    headers: bearer(who[caller].token),
    ...(method === 'PUT' ? { payload: { label: `by ${caller}` } } : {}),
  });

const under = (d: Device) => devicePath(d, DEVICES[d][1], DEVICES[d][0]);
/** Every caller reads (GET) and updates (PUT) every device at `url(device)`: the statuses of READ and UPDATE. */
async function matrix(url: (d: Device) => string) {
  for (const d of Object.keys(DEVICES) as Device[])
    for (const [i, caller] of CALLERS.entries()) {
      const got = [(await call(caller, 'GET', url(d))).statusCode, (await call(caller, 'PUT', url(d))).statusCode];
      expect(got, `${d} / ${caller}`).toEqual([READ[d][i], UPDATE[d][i]]);
    }
}

before(async () => {
  t = await createTestApp();
  for (const ddl of [
    'test_pbxs (id text primary key, company_id text not null, site_id text)',
    'test_subscribers (id text primary key, pbx_id text not null references test_pbxs(id), user_id text)',
    'test_devices (id text primary key, subscriber_id text not null references test_subscribers(id), label text)',
  ])
    await t.db.execute(sql.raw(`CREATE TABLE ${ddl}`));
  const bp = await makeCompany(t, { name: 'Chains BP', isBP: true, bpType: 'DR' });
  ec = await makeCompany(t, { name: 'Chains EC', bpId: bp });
  const other = await makeCompany(t, { name: 'Chains other' });
  const site = await makeSite(t, ec);
  who.superadmin = await makeUser(t, t.defaultCompanyId, ['superadmin']);
  who.bp_admin = await makeUser(t, bp, ['bp_admin']);
  who.ec_admin = await makeUser(t, ec, ['company_admin']);
  who.site_admin = await makeUser(t, ec, ['site_admin'], { siteId: site });
  who.owner = await makeUser(t, ec);
  who.other_user = await makeUser(t, ec);
  who.other_admin = await makeUser(t, other, ['company_admin']);
  await t.db.insert(testPbxs).values([
    { id: 'P1', companyId: ec, siteId: site },
    { id: 'P3', companyId: ec },
    { id: 'P2', companyId: other },
  ]);
  await t.db.insert(testSubscribers).values([
    { id: 'S1', pbxId: 'P1', userId: who.owner.id },
    { id: 'S3', pbxId: 'P3', userId: who.other_user.id },
    { id: 'S2', pbxId: 'P2' },
  ]);
  await t.db.insert(testDevices).values(Object.entries(DEVICES).map(([id, [, s]]) => ({ id, subscriberId: s })));
  app = Fastify();
  installErrorHandling(app);
  app.addSchema(ErrorSchema);
  for (const o of Object.values(OPS)) registerOperation(app, t.deps, o);
  await app.ready();
});
after(async () => {
  await app?.close();
  await t?.close();
});

describe('issue 23, point 1, parent chains: relations of a child kind read its ancestors', () => {
  it("no child table copies a column: a device's company and site are its pbx's (two levels up), its owner its subscriber's", () => {
    expect(getTableColumns(testDevices)).not.toHaveProperty('companyId');
    const a = ancestry(K('testDevice'));
    expect(Object.fromEntries(Object.entries(a).map(([k, v]) => [k, [v.depth, v.column.name]]))).toEqual({
      company: [2, 'company_id'],
      site: [2, 'site_id'],
      owner: [1, 'user_id'],
    });
  });

  it('doc 2 shape, parent chains: each caller gets 200 / 403 / 404 on a device under its subscriber and pbx as the relations on the pbx (company, site, BP) and on the subscriber (owner) say', async () => {
    await matrix(under);
    // The levels above read the same relations: a subscriber as its device, a pbx for administrators only.
    for (const [i, caller] of CALLERS.entries()) {
      expect((await call(caller, 'GET', '/test/pbxs/P1/subscribers/S1')).statusCode, caller).toBe(READ.D1[i]);
      expect((await call(caller, 'GET', '/test/pbxs/P1')).statusCode, caller).toBe(i < 4 ? 200 : 404);
    }
  });

  it('doc 2 shape, parent chains: a device read or updated by its id alone, with no parent in the path, gets the same outcomes: its relations still come from its grandparent pbx and its subscriber', async () => {
    await matrix((d) => `/test/devices/${d}`);
  });

  it('doc 2 shape, parent chains: a child of another parent is 404 at every level, and errorDetails names the level that failed (for every caller who may read the pbx the path names)', async () => {
    const P1 = ['superadmin', 'bp_admin', 'ec_admin', 'site_admin'] as const;
    const cases: [string, string, string, readonly CallerName[]][] = [
      ['GET', devicePath('D2', 'S1', 'P1'), 'testDevice:D2', P1], // a device under the subscriber of another PBX
      ['PUT', devicePath('D3', 'S1', 'P1'), 'testDevice:D3', P1], // a device of another subscriber, same company
      ['GET', devicePath('D2', 'S2', 'P1'), 'testSubscriber:S2', P1], // a subscriber under another pbx
      ['GET', devicePath('D1', 'nope', 'P1'), 'testSubscriber:nope', P1],
      ['PUT', devicePath('nope', 'S1', 'P1'), 'testDevice:nope', P1],
      ['GET', devicePath('D1', 'S1', 'P2'), 'testSubscriber:S1', ['superadmin', 'other_admin']],
      ['GET', '/test/pbxs/P2/subscribers/S1', 'testSubscriber:S1', ['superadmin', 'other_admin']],
      ['GET', devicePath('D1', 'S1', 'nope'), 'testPbx:nope', CALLERS], // a missing pbx
      ['GET', '/test/pbxs/nope/subscribers/S1', 'testPbx:nope', CALLERS],
    ];
    const label = async () => (await t.db.select().from(testDevices).where(eq(testDevices.id, 'D3')))[0]!.label;
    const before = await label();
    for (const [method, url, level, callers] of cases)
      for (const caller of callers) {
        const res = await call(caller, method as 'GET', url);
        const [target, id] = level.split(':');
        expect([res.statusCode, res.json().errorDetails], `${caller} ${method} ${url}`).toEqual([404, { target, id }]);
      }
    // Nothing was changed by the refused updates.
    expect(await label()).toBe(before);
  });

  it('doc 2 shape, parent chains: a caller who may read no level of the path cannot tell an existing pbx from a missing one', async () => {
    for (const url of [devicePath('D1', 'nope', 'P1'), devicePath('D2', 'S1', 'P1')]) {
      const invisible = (await call('other_admin', 'GET', url)).json().errorDetails;
      const missing = (await call('other_admin', 'GET', url.replace('/P1/', '/nope/'))).json().errorDetails;
      expect(invisible.target, url).toBe(missing.target);
      expect(invisible, url).toEqual({ target: 'testPbx', id: 'P1' });
    }
  });

  it('doc 2 shape, parent chains: the command receives the rows of the parents the path names (ctx.parents.testSubscriber, ctx.parents.testPbx)', async () => {
    const res = await call('ec_admin', 'GET', devicePath('D1', 'S1', 'P1'));
    expect(res.json().data).toEqual({ id: 'D1', via: ['S1', 'P1'], pbxCompany: ec });
    // By its id alone, no parent is loaded for the command (the ancestors serve the relations only).
    expect((await call('ec_admin', 'GET', '/test/devices/D1')).json().data).toEqual({ id: 'D1', via: [] });
  });

  it('doc 2 shape, parent chains: the whole authorisation of a device under its two parents is one statement, and so is the one by id (its ancestors joined in it)', async () => {
    for (const url of [devicePath('D1', 'S1', 'P1'), '/test/devices/D1']) {
      for (const caller of ['site_admin', 'owner'] as const) {
        expect((await call(caller, 'GET', url)).statusCode).toBe(200); // prepared before counting
        let status = 0;
        const seen = await statementsOf(t, async () => (status = (await call(caller, 'GET', url)).statusCode));
        expect([status, seen.length], `${caller} ${url}: ${seen.join(' | ')}`).toEqual([200, 1]);
        if (t.deps.database.kind !== 'embedded') continue;
        // Its text (PGlite prepares it in its one session): the pbx is joined once, as the path's
        // parent p2, or as the target's ancestor t_2 when the path names no parent.
        const byId = url.startsWith('/test/devices');
        const name = byId ? 'target_getTestDeviceById' : 'target_getTestDevice';
        // (With every relation, and with those of the caller's roles: name_r<roles>.)
        const text = sql`SELECT statement FROM pg_prepared_statements WHERE name = ${name} OR name LIKE ${`${name}\\_r%`}`;
        const { rows } = (await t.db.execute(text)) as unknown as { rows: { statement: string }[] };
        expect(rows.length).toBeGreaterThan(1);
        for (const { statement } of rows)
          expect(statement.match(/LEFT JOIN test_pbxs \w+/g)).toEqual([`LEFT JOIN test_pbxs ${byId ? 't_2' : 'p2'}`]);
      }
    }
  });

  it('doc 2 shape, parent chains: a job running the command for a caller (runCommand, by user id) gets the outcomes of HTTP', async () => {
    const params = (d: Device) => ({ pbxId: DEVICES[d][0], subscriberId: DEVICES[d][1], deviceId: d });
    const cases: [CallerName, AnyOperation, Record<string, string>, number][] = [
      ['ec_admin', OPS.getTestDevice, params('D1'), 200],
      ['owner', OPS.getTestDevice, params('D1'), 200],
      ['owner', OPS.updateTestDevice, params('D1'), 403],
      ['other_user', OPS.getTestDevice, params('D1'), 404],
      ['site_admin', OPS.getTestDeviceById, { deviceId: 'D3' }, 404],
      ['other_user', OPS.updateTestDeviceById, { deviceId: 'D3' }, 403],
      ['superadmin', OPS.getTestDevice, { ...params('D1'), pbxId: 'P2' }, 404],
      ['bp_admin', OPS.updateTestDevice, params('D3'), 200],
    ];
    for (const [caller, o, p, status] of cases) {
      const url = o.path.replace(/:(\w+)/g, (_, k: string) => p[k]!);
      const http = await call(caller, o.method as 'GET', url);
      const run = { callerId: who[caller].id, log: app.log };
      const job = await runCommand(t.deps, o, { params: p, body: { label: `by ${caller}` } }, run).then(
        (data) => ({ status: 200, data }),
        (err: unknown) => ({ status: errorOutcome(err).errorCode, errorDetails: errorOutcome(err).errorDetails }),
      );
      const { data, errorDetails } = http.json();
      expect(http.statusCode, `${caller} ${o.operationId} over HTTP`).toBe(status);
      expect(job, `${caller} ${o.operationId}`).toEqual({
        status,
        ...(data ? { data } : { errorDetails }),
      });
    }
  });

  it("doc 2 shape, parent chains: a list scoped to a child kind (kindColumns('testDevice') in its WHERE clause) selects exactly the devices the caller reaches", async () => {
    const cols = kindColumns(K('testDevice'));
    expect(Object.keys(cols).sort()).toEqual(['company', 'owner', 'site']);
    for (const [i, caller] of CALLERS.entries()) {
      const res = await call(caller, 'GET', '/test/devices');
      expect(res.statusCode, caller).toBe(200);
      const listed = (res.json().data as { id: string }[]).map((d) => d.id);
      const reached = (Object.keys(DEVICES) as Device[]).filter((d) => READ[d][i] === 200).sort();
      expect(listed, caller).toEqual(reached);
    }
  });

  it('a declaration whose parents are not its chain, nearest first, is refused at registration', () => {
    const wrong = one('getTestDevice', 'testDevice', DEVICE_PATH, { testPbx: 'pbxId', testSubscriber: 'subscriberId' });
    expect(() => registerOperation(Fastify(), t.deps, wrong)).toThrow(/a testDevice has no testPbx parent/);
  });

  it('checkTargetChains refuses a kind whose parent is not installed, a chain that loops, and another parent that is no kind', () => {
    const all = TARGETS as Record<string, unknown>;
    const kind = (parent?: string, other?: string) =>
      targetKind(testDevices, {
        cols: {},
        readBy: 'getTestDevice',
        ...(parent ? { parent: { kind: parent, column: testDevices.subscriberId } } : {}),
        ...(other ? { parents: { [other]: testDevices.subscriberId } } : {}),
      });
    const cases: [Record<string, TargetKind>, RegExp][] = [
      [{ chainsOrphan: kind('chainsMissing') }, /chainsOrphan: its chain names an unknown kind chainsMissing/],
      [{ chainsLoopA: kind('chainsLoopB'), chainsLoopB: kind('chainsLoopA') }, /its chain of parents loops/],
      [{ chainsOther: kind(undefined, 'chainsNowhere') }, /chainsOther: parent chainsNowhere is not a kind/],
    ];
    expect(() => checkTargetChains()).not.toThrow();
    for (const [kinds, error] of cases) {
      try {
        registerTargets('chains-test-bad', kinds);
        expect(() => checkTargetChains()).toThrow(error);
      } finally {
        for (const name of Object.keys(kinds)) delete all[name];
      }
    }
    expect(() => checkTargetChains()).not.toThrow();
  });
});
