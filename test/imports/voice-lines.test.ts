// Issue 27, points 2 and 4 (document 3, Bulk import, the voice-provisioning mode): the voice of an
// import line (src/modules/imports/voice-lines.ts) run directly, as the engine runs it: in a
// savepoint of a batch transaction, its undo steps run (last first) after the savepoint's
// rollback when it throws. Runs on PGlite and PostgreSQL (TEST_DATABASE_URL).
import { failureOf, runLineOn } from './support.ts';
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, SUPERADMIN, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser, type MadeUser } from '../support/factories.ts';
import { createPbx, licensedUser, seedSubscriber } from '../pbx/fixtures.ts';
import { portsOf } from '../../src/ports/ports.ts';
import { users } from '../../src/modules/admin/users/users.tables.ts';
import { subscribers } from '../../src/modules/pbx/subscribers.tables.ts';
import { devices } from '../../src/modules/pbx/devices.tables.ts';
import { ddis } from '../../src/modules/pbx/ddis.tables.ts';
import { cloudPbxs } from '../../src/modules/pbx/pbx.tables.ts';
import { applyVoice, cloudPbxOfCompany, detachVoice } from '../../src/modules/imports/voice-lines.ts';
import type { LineUser, LineWork } from '../../src/modules/imports/lines.ts';
import type { Action, ImportLine, VoiceFields } from '../../src/modules/imports/columns.ts';
import { rowsOf } from '../../src/db/raw.ts';

let t: TestApp;
let ec: string;
let admin: MadeUser;
let otherAdmin: MadeUser;
let rootId: string;
let pbx: Record<string, any>;
let tenantId: string;
let otherPbx: Record<string, any>;

const voice = () => portsOf(t.deps).voice;
let macSeq = 0x200;
const nextMac = () => (0xc0ffee000000 + macSeq++).toString(16).match(/../g)!.join(':');
let numberSeq = 0;
/** A French number new to the platform (03 xx xx xx xx), and its E.164 form. */
const nextDdi = () => {
  const national = `03${String(100_000_000 + ++numberSeq).slice(1)}`;
  return { national, e164: `+33${national.slice(1)}` };
};
let shortSeq = 200;
const nextShort = () => String(2000 + ++shortSeq);

function voiceLine(action: Action, login: string, v: Partial<VoiceFields>): ImportLine {
  return {
    line: 2,
    raw: '',
    action,
    login,
    user: {},
    cleared: [],
    voice: {
      shortNumber: null,
      ddiE164Number: null,
      macAddress: null,
      deviceTypeId: null,
      customSipHeader_1: null,
      customSipHeader_2: null,
      ...v,
    },
  };
}

const existing = (u: { id: string }): LineUser => ({ id: u.id, created: false, roles: ['user'] });

/** One line as the engine runs it (test/imports/support.ts). */
const runLine = <T>(
  fn: (work: LineWork) => Promise<T>,
  o: { dryRun?: boolean; callerId?: string; companyId?: string } = {},
) => runLineOn(t, { callerId: admin.id, companyId: ec, ...o }, fn);
const failure = failureOf;

const subscriberOf = async (userId: string) =>
  (await t.db.select().from(subscribers).where(eq(subscribers.userId, userId)))[0];
const platformSubscribersOf = async (userId: string) =>
  (await voice().listSubscribers(tenantId)).filter((s) => s.userId === userId);
/** The rows of a statement (the drivers answer `{ rows }`). */
const rows = async (q: ReturnType<typeof sql>) => rowsOf<Record<string, unknown>>(await t.db.execute(q));
/** Device accounts of the registrar with no device of the service: what a failed line must not leave. */
const strayAccounts = async () =>
  (
    await rows(
      sql`SELECT id FROM port_records WHERE port = 'voice' AND kind = 'device-account' AND id NOT IN (SELECT id FROM pbx_devices)`,
    )
  ).length;
const portRecordCount = async () => Number((await rows(sql`SELECT count(*)::int AS n FROM port_records`))[0].n);
const outboxCount = async () => Number((await rows(sql`SELECT count(*)::int AS n FROM outbox`))[0].n);

beforeAll(async () => {
  t = await createTestApp({ background: true });
  ec = await makeCompany(t, { name: 'Voice import EC' });
  await t.db.execute(sql`UPDATE companies SET country = 'FRA' WHERE id = ${ec}`);
  admin = await makeUser(t, ec, ['company_admin']);
  const other = await makeCompany(t, { name: 'Voice import other EC' });
  otherAdmin = await makeUser(t, other, ['company_admin']);
  pbx = await createPbx(t, ec);
  otherPbx = await createPbx(t, other);
  [{ vcpTenantId: tenantId }] = await t.db.select().from(cloudPbxs).where(eq(cloudPbxs.id, pbx.id));
  [{ id: rootId }] = await t.db.select().from(users).where(eq(users.loginEmail, SUPERADMIN.email));
});
afterAll(async () => {
  await t.close();
});

describe('issue 27, point 2: the voice mode of an import line', () => {
  it('cloudPbxOfCompany: the CloudPBX of the company, none for a company without one', async () => {
    expect(await cloudPbxOfCompany(t.db, ec)).toEqual({ id: pbx.id });
    expect(await cloudPbxOfCompany(t.db, await makeCompany(t))).toBe(undefined);
  });

  it('doc 3, bulk import, upsert: shortNumber makes the user a subscriber, macAddress makes and assigns his SIP device, ddiE164Number makes and assigns the DDI, the SIP headers are set', async () => {
    const u = await licensedUser(t, ec);
    const short = nextShort();
    const mac = nextMac();
    const ddi = nextDdi();
    const out = await runLine((w) =>
      applyVoice(
        w,
        voiceLine('upsert', u.email, {
          shortNumber: short,
          macAddress: mac.toUpperCase(),
          ddiE164Number: ddi.national,
          customSipHeader_1: 'X-Team: sales',
        }),
        existing(u),
      ),
    );
    expect(out.error).toBe(undefined);
    const sub = await subscriberOf(u.id);
    expect(sub).toMatchObject({ cloudPbxId: pbx.id, shortNumber: short, customSipHeader1: 'X-Team: sales' });
    const [device] = await t.db.select().from(devices).where(eq(devices.macAddress, mac));
    expect(device).toMatchObject({ subscriberId: sub.id, deviceTypeId: 999999, cloudPbxId: pbx.id });
    expect(device.description).toContain('First');
    const [d] = await t.db.select().from(ddis).where(eq(ddis.numberE164, ddi.e164));
    expect(d).toMatchObject({ cloudPbxId: pbx.id, userId: u.id });
    expect(await platformSubscribersOf(u.id)).toHaveLength(1);
    expect((await voice().getDeviceAccount(device.id))?.enabled).toBe(true);
    const r = out.result!.reports;
    expect(r._subscriber).toMatchObject({
      action: 'create',
      userId: u.id,
      companyId: ec,
      status: 'done',
      origin: { shortNumber: short, state: 'absent', customSipHeader_1: 'X-Team: sales' },
    });
    expect(r._sipDevice).toMatchObject({
      action: 'create',
      status: 'done',
      origin: { macAddress: mac, state: 'absent' },
    });
    expect(r._ddi).toMatchObject({
      action: 'create',
      status: 'done',
      origin: { ddiE164Number: ddi.e164, state: 'absent' },
    });
    // The same line again changes nothing.
    const again = await runLine((w) =>
      applyVoice(
        w,
        voiceLine('upsert', u.email, {
          shortNumber: short,
          macAddress: mac,
          ddiE164Number: ddi.e164,
          customSipHeader_1: 'X-Team: sales',
        }),
        existing(u),
      ),
    );
    expect(again.error).toBe(undefined);
    expect(again.result!.reports).toMatchObject({
      _subscriber: { action: 'none' },
      _sipDevice: { action: 'none' },
      _ddi: { action: 'none' },
    });
  });

  it('doc 3, bulk import, upsert: an existing unassigned device and DDI of the CloudPBX are assigned; empty cells change nothing', async () => {
    const u = await licensedUser(t, ec);
    const sub = await seedSubscriber(t, pbx.id, u.id, nextShort());
    const mac = nextMac();
    const ddi = nextDdi();
    // Made by another line for another user, then unassigned by a sync line.
    const holder = await licensedUser(t, ec);
    await seedSubscriber(t, pbx.id, holder.id, nextShort());
    await runLine((w) =>
      applyVoice(
        w,
        voiceLine('upsert', holder.email, { macAddress: mac, ddiE164Number: ddi.national }),
        existing(holder),
      ),
    );
    const cleared = await runLine((w) => applyVoice(w, voiceLine('sync', holder.email, {}), existing(holder)));
    expect(cleared.result!.reports).toMatchObject({ _sipDevice: { action: 'unassign' }, _ddi: { action: 'unassign' } });
    const [device] = await t.db.select().from(devices).where(eq(devices.macAddress, mac));
    expect(device.subscriberId).toBe(null);
    expect((await voice().getDeviceAccount(device.id))?.enabled).toBe(false);

    await t.db.update(subscribers).set({ customSipHeader2: 'kept' }).where(eq(subscribers.id, sub));
    const out = await runLine((w) =>
      applyVoice(w, voiceLine('upsert', u.email, { macAddress: mac, ddiE164Number: ddi.e164 }), existing(u)),
    );
    expect(out.error).toBe(undefined);
    expect(out.result!.reports).toMatchObject({
      _sipDevice: { action: 'assign', origin: { state: 'unassigned' } },
      _ddi: { action: 'assign', origin: { state: 'unassigned' } },
    });
    expect(out.result!.reports._subscriber).toBe(undefined);
    expect((await t.db.select().from(devices).where(eq(devices.id, device.id)))[0].subscriberId).toBe(sub);
    expect((await voice().getDeviceAccount(device.id))?.enabled).toBe(true);
    expect((await t.db.select().from(ddis).where(eq(ddis.numberE164, ddi.e164)))[0].userId).toBe(u.id);
    expect((await subscriberOf(u.id)).customSipHeader2).toBe('kept');
  });

  it('doc 3, bulk import, sync: empty cells clear: his devices and DDI numbers are unassigned, his SIP headers cleared; an empty shortNumber keeps the subscriber', async () => {
    const u = await licensedUser(t, ec);
    const short = nextShort();
    const [mac1, mac2] = [nextMac(), nextMac()];
    const ddi = nextDdi();
    await runLine((w) =>
      applyVoice(
        w,
        voiceLine('upsert', u.email, {
          shortNumber: short,
          macAddress: mac1,
          ddiE164Number: ddi.national,
          customSipHeader_1: 'a',
          customSipHeader_2: 'b',
        }),
        existing(u),
      ),
    );
    // A sync line naming another device: the first is unassigned, the second made and assigned.
    const swap = await runLine((w) =>
      applyVoice(
        w,
        voiceLine('sync', u.email, { macAddress: mac2, ddiE164Number: ddi.e164, customSipHeader_1: 'a' }),
        existing(u),
      ),
    );
    expect(swap.error).toBe(undefined);
    const sub = await subscriberOf(u.id);
    const assigned = await t.db.select().from(devices).where(eq(devices.subscriberId, sub.id));
    expect(assigned.map((d) => d.macAddress)).toEqual([mac2]);
    expect(sub.customSipHeader1).toBe('a');
    expect(sub.customSipHeader2).toBe(null);
    // Everything empty: devices and DDIs unassigned, headers cleared, the subscriber stays.
    const out = await runLine((w) => applyVoice(w, voiceLine('sync', u.email, {}), existing(u)));
    expect(out.error).toBe(undefined);
    const after = await subscriberOf(u.id);
    expect(after).toMatchObject({ shortNumber: short, customSipHeader1: null, customSipHeader2: null });
    expect(await t.db.select().from(devices).where(eq(devices.subscriberId, sub.id))).toHaveLength(0);
    expect(await t.db.select().from(ddis).where(eq(ddis.userId, u.id))).toHaveLength(0);
    expect(out.result!.reports).toMatchObject({
      _sipDevice: { action: 'unassign', status: 'done' },
      _ddi: { action: 'unassign', status: 'done' },
      _subscriber: { action: 'update', origin: { customSipHeader_1: null, customSipHeader_2: null } },
    });
  });

  it('issue 27, point 4: a SIP device line for a user who is not a subscriber (no shortNumber) fails with code 2011, in the import and in the check', async () => {
    const u = await licensedUser(t, ec);
    const mac = nextMac();
    for (const dryRun of [false, true]) {
      const out = await runLine((w) => applyVoice(w, voiceLine('upsert', u.email, { macAddress: mac }), existing(u)), {
        dryRun,
      });
      const f = failure(out);
      expect(f.error.code).toBe(2011);
      expect(f.error.message).toContain('macAddress');
      expect(f.reports._sipDevice).toMatchObject({ action: 'assign', status: 'failed', error: { code: 2011 } });
    }
    expect(await t.db.select().from(devices).where(eq(devices.macAddress, mac))).toHaveLength(0);
    // A DDI for a non-subscriber: 2016 naming the column.
    const ddi = await runLine((w) =>
      applyVoice(w, voiceLine('upsert', u.email, { ddiE164Number: nextDdi().national }), existing(u)),
    );
    expect(failure(ddi).error).toMatchObject({ code: 2016 });
    expect(failure(ddi).error.message).toContain('ddiE164Number');
  });

  it('issue 27, point 4: a line whose DDI is refused after its subscriber and device account were made leaves nothing, on the voice platform and the registrar included', async () => {
    const u = await licensedUser(t, ec);
    const mac = nextMac();
    // A number of the other company's CloudPBX: createDdi refuses it (409810).
    const taken = nextDdi();
    const res = await t.inject({
      method: 'POST',
      url: `/api/svc/vcpprovisioning/v1.0/cloudpbxs/${otherPbx.id}/phone-numbers/ddi`,
      headers: { authorization: `Bearer ${t.superToken}` },
      payload: { number: taken.national },
    });
    expect(res.statusCode, res.body).toBe(201);
    const strayBefore = await strayAccounts();
    const out = await runLine((w) =>
      applyVoice(
        w,
        voiceLine('upsert', u.email, { shortNumber: nextShort(), macAddress: mac, ddiE164Number: taken.national }),
        existing(u),
      ),
    );
    const f = failure(out);
    expect(f.error).toEqual({ code: 409810, message: expect.any(String) });
    expect(f.reports).toMatchObject({
      _subscriber: { action: 'create', status: 'done' },
      _sipDevice: { action: 'create', status: 'done' },
      _ddi: { status: 'failed', error: { code: 409810 } },
    });
    // Undo steps: the platform's subscriber, the device account, its assignment.
    expect(out.undone).toBeGreaterThanOrEqual(2);
    expect(await subscriberOf(u.id)).toBe(undefined);
    expect(await t.db.select().from(devices).where(eq(devices.macAddress, mac))).toHaveLength(0);
    expect(await platformSubscribersOf(u.id)).toHaveLength(0);
    expect(await strayAccounts()).toBe(strayBefore);
  });

  it('issue 27, point 4: a line that fails after its device was unassigned puts the device account back as it was (enabled)', async () => {
    const u = await licensedUser(t, ec);
    const mac = nextMac();
    await runLine((w) =>
      applyVoice(w, voiceLine('upsert', u.email, { shortNumber: nextShort(), macAddress: mac }), existing(u)),
    );
    const [device] = await t.db.select().from(devices).where(eq(devices.macAddress, mac));
    expect((await voice().getDeviceAccount(device.id))?.enabled).toBe(true);
    // sync with an empty macAddress unassigns it (its account disabled), then the DDI is refused.
    const out = await runLine((w) => applyVoice(w, voiceLine('sync', u.email, { ddiE164Number: '12' }), existing(u)));
    expect(failure(out).error.code).toBe(400810);
    expect((await t.db.select().from(devices).where(eq(devices.id, device.id)))[0].subscriberId).not.toBe(null);
    expect((await voice().getDeviceAccount(device.id))?.enabled).toBe(true);
  });

  it('issue 27, point 3: a check (dry run) writes nothing and calls no external system, and reports what the import would', async () => {
    const u = await licensedUser(t, ec);
    const line = voiceLine('upsert', u.email, {
      shortNumber: nextShort(),
      macAddress: nextMac(),
      ddiE164Number: nextDdi().national,
      customSipHeader_1: 'x',
    });
    const before = { ports: await portRecordCount(), outbox: await outboxCount() };
    // Every voice platform call fails meanwhile: the check must make none.
    const control = portsOf(t.deps).controls.voice;
    control.failNext = 1000;
    const out = await runLine((w) => applyVoice(w, line, existing(u)), { dryRun: true });
    control.failNext = 0;
    expect(out.error).toBe(undefined);
    expect(out.result!.reports).toMatchObject({
      _subscriber: { action: 'create', status: 'done' },
      _sipDevice: { action: 'create', status: 'done' },
      _ddi: { action: 'create', status: 'done' },
    });
    expect(await subscriberOf(u.id)).toBe(undefined);
    expect(await portRecordCount()).toBe(before.ports);
    expect(await outboxCount()).toBe(before.outbox);
    // A user the import would create (no id yet): he would be given a licence of the company's
    // first service subscription with a licence free (docs/decisions.md, Bulk import), named in the report.
    const fresh = await runLine(
      (w) =>
        applyVoice(w, voiceLine('upsert', 'new@example.com', { shortNumber: nextShort(), macAddress: nextMac() }), {
          id: null,
          created: true,
          roles: ['user'],
        }),
      { dryRun: true },
    );
    expect(fresh.error).toBe(undefined);
    expect(fresh.result!.reports._subscriber).toMatchObject({
      action: 'create',
      licence: { subscriptionId: expect.any(String) },
    });
    // The refusals the operations would give: a short number taken (409822), out of the plan (400820).
    const holder = await licensedUser(t, ec);
    const takenShort = nextShort();
    await seedSubscriber(t, pbx.id, holder.id, takenShort);
    const taken = await runLine(
      (w) => applyVoice(w, voiceLine('upsert', u.email, { shortNumber: takenShort }), existing(u)),
      { dryRun: true },
    );
    expect(failure(taken).error.code).toBe(409822);
    const outOfPlan = await runLine(
      (w) => applyVoice(w, voiceLine('upsert', u.email, { shortNumber: '9999' }), existing(u)),
      { dryRun: true },
    );
    expect(failure(outOfPlan).error.code).toBe(400820);
    // And the import gives the same code for the same line.
    const real = await runLine((w) =>
      applyVoice(w, voiceLine('upsert', u.email, { shortNumber: takenShort }), existing(u)),
    );
    expect(failure(real).error.code).toBe(409822);
  });

  it('issue 27, point 2: the operations run for the caller: an administrator of another company is refused as over HTTP', async () => {
    const u = await licensedUser(t, ec);
    const out = await runLine(
      (w) => applyVoice(w, voiceLine('upsert', u.email, { shortNumber: nextShort() }), existing(u)),
      {
        callerId: otherAdmin.id,
      },
    );
    const f = failure(out);
    expect([403, 404].includes(Math.floor(f.error.code / 1000))).toBe(true);
    expect(f.reports._subscriber).toMatchObject({ status: 'failed' });
    expect(await subscriberOf(u.id)).toBe(undefined);
    // The superadmin may.
    const ok = await runLine(
      (w) => applyVoice(w, voiceLine('upsert', u.email, { shortNumber: nextShort() }), existing(u)),
      {
        callerId: rootId,
      },
    );
    expect(ok.error).toBe(undefined);
  });

  it('issue 27, point 2: a subscriber with another short number is refused (2012); a company without a CloudPBX fails a filled line (2018)', async () => {
    const u = await licensedUser(t, ec);
    await seedSubscriber(t, pbx.id, u.id, nextShort());
    const out = await runLine((w) =>
      applyVoice(w, voiceLine('upsert', u.email, { shortNumber: nextShort() }), existing(u)),
    );
    expect(failure(out).error.code).toBe(2012);
    const bare = await makeCompany(t);
    const v = await makeUser(t, bare);
    const none = await runLine(
      (w) => applyVoice(w, voiceLine('upsert', v.email, { macAddress: nextMac() }), existing(v)),
      {
        companyId: bare,
        callerId: rootId,
      },
    );
    expect(failure(none).error.code).toBe(2018);
    const empty = await runLine((w) => applyVoice(w, voiceLine('sync', v.email, {}), existing(v)), {
      companyId: bare,
      callerId: rootId,
    });
    expect(empty.error).toBe(undefined);
  });

  it('doc 3, bulk import, detach in voice mode: the user stops being a subscriber (on the voice platform too) and stays a user; not a subscriber: 2017', async () => {
    const u = await licensedUser(t, ec);
    const mac = nextMac();
    await runLine((w) =>
      applyVoice(w, voiceLine('upsert', u.email, { shortNumber: nextShort(), macAddress: mac }), existing(u)),
    );
    expect(await platformSubscribersOf(u.id)).toHaveLength(1);
    const check = await runLine((w) => detachVoice(w, voiceLine('detach', u.email, {}), existing(u)), { dryRun: true });
    expect(check.result!.reports._subscriber).toMatchObject({
      action: 'delete',
      status: 'done',
      origin: { state: 'subscriber' },
    });
    expect(await subscriberOf(u.id)).not.toBe(undefined);
    const out = await runLine((w) => detachVoice(w, voiceLine('detach', u.email, {}), existing(u)));
    expect(out.error).toBe(undefined);
    expect(await subscriberOf(u.id)).toBe(undefined);
    expect(await platformSubscribersOf(u.id)).toHaveLength(0);
    expect(
      await t.db
        .select()
        .from(users)
        .where(and(eq(users.id, u.id))),
    ).toHaveLength(1);
    const [device] = await t.db.select().from(devices).where(eq(devices.macAddress, mac));
    expect(device.subscriberId).toBe(null);
    const again = await runLine((w) => detachVoice(w, voiceLine('detach', u.email, {}), existing(u)));
    expect(failure(again).error.code).toBe(2017);
    expect(failure(again).reports._subscriber).toMatchObject({ action: 'delete', status: 'failed' });
  });
});
