// Issue 27, point 2 (document 3, Bulk import, modes device and useranddevice: "upsert ...
// attaches a device by force when filled; sync ... detaches a device when empty; detach (detach a
// PBX extension from a user)"; "Device mode actions counted: attach, force_attach, detach"): the
// PBX extension of an import line (src/modules/imports/device-lines.ts) run directly, as the
// engine runs it (a savepoint of a batch transaction; undo steps after its rollback). Runs on
// PGlite and PostgreSQL (TEST_DATABASE_URL).
import { createSystemAt, recordGatewayRequests, reportPhoneNumbers } from './support.ts';
import { failureOf, runLineOn } from './support.ts';
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq, sql } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { systemPhoneNumbers } from '../../src/modules/systems/phone-numbers.tables.ts';
import { applyDevice, detachDevice } from '../../src/modules/imports/device-lines.ts';
import type { LineUser, LineWork } from '../../src/modules/imports/lines.ts';
import type { Action, DeviceFields, ImportLine } from '../../src/modules/imports/columns.ts';
import { rowsOf } from '../../src/db/raw.ts';

let t: TestApp;
let ec: string;
let site: string;
let admin: MadeUser;
/** The iq requests sent to gateways, in order. */
const sent: { to: string; stanza: string }[] = [];

const createSystem = (name: string) => createSystemAt(t, site, name);
const report = (systemId: string, numbers: object[]) => reportPhoneNumbers(t, systemId, numbers);
const userOf = async (phoneNumberId: string) =>
  (await t.db.select().from(systemPhoneNumbers).where(eq(systemPhoneNumbers.id, phoneNumberId)))[0].userId;
const link = (phoneNumberId: string, userId: string | null) =>
  t.db.update(systemPhoneNumbers).set({ userId }).where(eq(systemPhoneNumbers.id, phoneNumberId));

let seq = 6000;
const nextShort = () => String(++seq);

function deviceLine(action: Action, login: string, device?: Partial<DeviceFields>): ImportLine {
  return {
    line: 2,
    raw: '',
    action,
    login,
    user: {},
    cleared: [],
    ...(device ? { device: { pbxShortNumber: null, pbxInternalNumber: null, ...device } } : {}),
  };
}
const existing = (u: { id: string }): LineUser => ({ id: u.id, created: false, roles: ['user'] });

/** One line as the engine runs it (test/imports/support.ts). */
const runLine = <T>(
  fn: (work: LineWork) => Promise<T>,
  o: { dryRun?: boolean; callerId?: string; after?: () => void } = {},
) => runLineOn(t, { callerId: admin.id, companyId: ec, ...o }, fn);
const failure = failureOf;

beforeAll(async () => {
  t = await createTestApp({ background: true });
  ec = await makeCompany(t, { name: 'Device import EC' });
  site = await makeSite(t, ec);
  admin = await makeUser(t, ec, ['company_admin']);
  recordGatewayRequests(t, sent);
});
afterAll(async () => {
  await t.close();
});

describe('issue 27, point 2: the PBX extension of a device-mode line', () => {
  it('doc 3, bulk import, upsert: a free extension is attached (attach); one of another user is taken by force (force_attach); his own is left as it is (not counted)', async () => {
    const s = await createSystem('Attach');
    const [a, b] = await report(s.id, [
      { shortNumber: nextShort() },
      { shortNumber: nextShort(), internalNumber: '77001' },
    ]);
    const u = await makeUser(t, ec);
    const other = await makeUser(t, ec);
    await link(b.id, other.id);
    const before = sent.length;
    const one = await runLine((w) =>
      applyDevice(w, deviceLine('upsert', u.email, { pbxShortNumber: a.shortNumber }), existing(u)),
    );
    expect(one.error).toBe(undefined);
    expect(one.result!.deviceAction).toBe('attach');
    expect(one.result!.reports._device).toMatchObject({
      action: 'attach',
      userId: u.id,
      companyId: ec,
      status: 'done',
      origin: { pbxShortNumber: a.shortNumber, pbxInternalNumber: a.internalNumber, state: 'free' },
    });
    expect(await userOf(a.id)).toBe(u.id);
    // The system's gateway was told (updateSystemPhoneNumber waits for its acknowledgement).
    expect(sent.length).toBe(before + 1);
    expect(sent[before].to).toBe(`${s.jid_pbxpcg}/gateway`);

    const two = await runLine((w) =>
      applyDevice(w, deviceLine('sync', u.email, { pbxInternalNumber: '77001' }), existing(u)),
    );
    expect(two.result!.deviceAction).toBe('force_attach');
    expect(two.result!.reports._device).toMatchObject({
      action: 'force_attach',
      origin: { state: 'attached_to_other_user', previousUserId: other.id },
    });
    expect(await userOf(b.id)).toBe(u.id);

    const three = await runLine((w) =>
      applyDevice(w, deviceLine('upsert', u.email, { pbxShortNumber: a.shortNumber }), existing(u)),
    );
    expect(three.result!.deviceAction).toBe(undefined);
    expect(three.result!.reports._device).toMatchObject({ action: 'attach', origin: { state: 'attached_to_user' } });
    // No cell filled on an upsert line (no device field): nothing.
    const none = await runLine((w) => applyDevice(w, deviceLine('upsert', u.email), existing(u)));
    expect(none.result).toEqual({ reports: {} });
  });

  it('issue 27, point 4: an extension no system of the company has is 3001; one several systems have is 3002 unless both columns single it out', async () => {
    const s1 = await createSystem('Ambiguous 1');
    const s2 = await createSystem('Ambiguous 2');
    const short = nextShort();
    await report(s1.id, [{ shortNumber: short, internalNumber: '81' }]);
    const [n2] = await report(s2.id, [{ shortNumber: short, internalNumber: '82' }]);
    const u = await makeUser(t, ec);
    for (const dryRun of [false, true]) {
      const missing = await runLine(
        (w) => applyDevice(w, deviceLine('upsert', u.email, { pbxShortNumber: '99999' }), existing(u)),
        { dryRun },
      );
      expect(failure(missing).error.code).toBe(3001);
      expect(failure(missing).error.message).toContain('pbxShortNumber');
      expect(failure(missing).reports._device).toMatchObject({ status: 'failed', error: { code: 3001 } });
      const ambiguous = await runLine(
        (w) => applyDevice(w, deviceLine('upsert', u.email, { pbxShortNumber: short }), existing(u)),
        { dryRun },
      );
      expect(failure(ambiguous).error.code).toBe(3002);
    }
    const decided = await runLine((w) =>
      applyDevice(w, deviceLine('upsert', u.email, { pbxShortNumber: short, pbxInternalNumber: '82' }), existing(u)),
    );
    expect(decided.result!.deviceAction).toBe('attach');
    expect(await userOf(n2.id)).toBe(u.id);
    // Another company's numbers are not the company's: not found.
    const o = await makeCompany(t);
    const oSite = await makeSite(t, o);
    const other = await createSystemAt(t, oSite, 'Other');
    const elsewhere = nextShort();
    await report(other.id, [{ shortNumber: elsewhere }]);
    const notOurs = await runLine((w) =>
      applyDevice(w, deviceLine('upsert', u.email, { pbxShortNumber: elsewhere }), existing(u)),
    );
    expect(failure(notOurs).error.code).toBe(3001);
  });

  it('doc 3, bulk import, sync: both device cells empty detach the user’s extensions (detach); with none, nothing and no error', async () => {
    const s = await createSystem('Sync detach');
    const [a, b] = await report(s.id, [{ shortNumber: nextShort() }, { shortNumber: nextShort() }]);
    const u = await makeUser(t, ec);
    await link(a.id, u.id);
    await link(b.id, u.id);
    const out = await runLine((w) => applyDevice(w, deviceLine('sync', u.email, {}), existing(u)));
    expect(out.error).toBe(undefined);
    expect(out.result!.deviceAction).toBe('detach');
    expect(out.result!.reports._device).toMatchObject({ action: 'detach', status: 'done', count: 2 });
    expect(await userOf(a.id)).toBe(null);
    expect(await userOf(b.id)).toBe(null);
    const again = await runLine((w) => applyDevice(w, deviceLine('sync', u.email, {}), existing(u)));
    expect(again.result).toEqual({ reports: {} });
  });

  it('doc 3, bulk import, detach: the extension named (or every one of the user) is detached; none attached to him: 3003', async () => {
    const s = await createSystem('Detach');
    const [a, b] = await report(s.id, [{ shortNumber: nextShort() }, { shortNumber: nextShort() }]);
    const u = await makeUser(t, ec);
    const other = await makeUser(t, ec);
    await link(a.id, u.id);
    await link(b.id, other.id);
    const notHis = await runLine((w) =>
      detachDevice(w, deviceLine('detach', u.email, { pbxShortNumber: b.shortNumber }), existing(u)),
    );
    expect(failure(notHis).error.code).toBe(3003);
    expect(await userOf(b.id)).toBe(other.id);
    const named = await runLine((w) =>
      detachDevice(w, deviceLine('detach', u.email, { pbxShortNumber: a.shortNumber }), existing(u)),
    );
    expect(named.result).toMatchObject({
      deviceAction: 'detach',
      reports: { _device: { action: 'detach', status: 'done' } },
    });
    expect(await userOf(a.id)).toBe(null);
    const nothing = await runLine((w) => detachDevice(w, deviceLine('detach', u.email), existing(u)));
    expect(failure(nothing).error.code).toBe(3003);
    expect(failure(nothing).reports._device).toMatchObject({ action: 'detach', status: 'failed' });
    const all = await runLine((w) => detachDevice(w, deviceLine('detach', other.email), existing(other)));
    expect(all.result!.deviceAction).toBe('detach');
    expect(await userOf(b.id)).toBe(null);
  });

  it('issue 27, point 3: a check (dry run) attaches nothing and asks no gateway, and gives the action the import would', async () => {
    const s = await createSystem('Check');
    const [a] = await report(s.id, [{ shortNumber: nextShort() }]);
    const u = await makeUser(t, ec);
    const other = await makeUser(t, ec);
    await link(a.id, other.id);
    const before = sent.length;
    const out = await runLine(
      (w) => applyDevice(w, deviceLine('upsert', u.email, { pbxShortNumber: a.shortNumber }), existing(u)),
      {
        dryRun: true,
      },
    );
    expect(out.result!.deviceAction).toBe('force_attach');
    // A user the import would create: the same.
    const fresh = await runLine(
      (w) =>
        applyDevice(w, deviceLine('upsert', 'new@example.com', { pbxShortNumber: a.shortNumber }), {
          id: null,
          created: true,
          roles: ['user'],
        }),
      { dryRun: true },
    );
    expect(fresh.result!.deviceAction).toBe('force_attach');
    const detach = await runLine((w) => detachDevice(w, deviceLine('detach', other.email), existing(other)), {
      dryRun: true,
    });
    expect(detach.result!.deviceAction).toBe('detach');
    expect(await userOf(a.id)).toBe(other.id);
    expect(sent.length).toBe(before);
  });

  it('issue 27, point 4: a line that fails after its extension was attached leaves the number as it was, and its gateway is told so again', async () => {
    const s = await createSystem('Undo');
    const [a] = await report(s.id, [{ shortNumber: nextShort() }]);
    const u = await makeUser(t, ec);
    const other = await makeUser(t, ec);
    await link(a.id, other.id);
    const before = sent.length;
    const out = await runLine(
      (w) => applyDevice(w, deviceLine('upsert', u.email, { pbxShortNumber: a.shortNumber }), existing(u)),
      {
        after: () => {
          throw new Error('a later part of the line failed');
        },
      },
    );
    expect(String(out.error)).toContain('a later part');
    expect(out.undone).toBe(1);
    expect(await userOf(a.id)).toBe(other.id);
    // Two iq: the attachment, then the number as it is again (its previous user).
    const iqs = sent.slice(before);
    expect(iqs).toHaveLength(2);
    expect(iqs[0].stanza).toContain(u.id);
    expect(iqs[1].stanza).toContain(other.id);
    expect(iqs[1].stanza).not.toContain(u.id);
  });

  it('issue 27, point 2: the attachment runs for the caller: an administrator who may not update the number is refused as over HTTP', async () => {
    const s = await createSystem('Authorisation');
    const [a] = await report(s.id, [{ shortNumber: nextShort() }]);
    const u = await makeUser(t, ec);
    const plain = await makeUser(t, ec);
    const out = await runLine(
      (w) => applyDevice(w, deviceLine('upsert', u.email, { pbxShortNumber: a.shortNumber }), existing(u)),
      {
        callerId: plain.id,
      },
    );
    const f = failure(out);
    expect([403, 404].includes(Math.floor(f.error.code / 1000))).toBe(true);
    expect(f.reports._device).toMatchObject({ status: 'failed', action: 'attach' });
    expect(await userOf(a.id)).toBe(null);
    const n = await t.db.execute(sql`SELECT count(*)::int AS n FROM system_phone_numbers WHERE user_id = ${u.id}`);
    expect(Number(rowsOf<{ n: number }>(n)[0].n)).toBe(0);
  });
});
