// The voice of an import line (issue 27, point 2; document 3, Bulk import: "a voice-provisioning
// mode"): the subscriber of the company's CloudPBX that the line's user is, its DDI number, its
// SIP device and its custom SIP headers. Every change is an existing operation run for the
// caller (src/http/run-command.ts), in the line's transaction: authorisation and rules are those
// of HTTP. What an operation does outside the database (the voice platform's subscriber, the
// registrar's device accounts) is undone by the steps registered with `work.onFailure` when the
// line fails (issue 27, point 4). A check (`work.dryRun`) reads only and calls no external system.
// Decisions: /work/decisions-voice.md (merged into docs/decisions.md, Bulk import).
import type { AppDeps } from '../../http/context.ts';
import type { Database, Executor } from '../../db/client.ts';
import { databaseOn } from '../../db/raw.ts';
import { runCommand, type CommandCall } from '../../http/run-command.ts';
import type { AnyOperation } from '../../http/operation.ts';
import { AppError, fail } from '../../errors/catalogue.ts';
import { errorOutcome } from '../../errors/handler.ts';
import { createPorts, portsOf } from '../../ports/ports.ts';
import type { VoicePort } from '../../ports/voice/voice.port.ts';
import { errorMessage, field } from '../../shared/json-values.ts';
import { userNamesOf } from '../admin/users/users.api.ts';
import * as pbx from '../pbx/pbx.api.ts';
import { assignUserLicence, holdsServiceLicence, serviceSubscriptionWithSeat } from '../commerce/commerce.api.ts';
import type { ImportLine } from './columns.ts';
import { lineError, type LineError, type LineErrorKey } from './line-errors.ts';
import { LineFailure, type LineUser, type LineWork, type SubReport, type SubReports } from './lines.ts';
import { sql } from 'drizzle-orm';

// ---------------------------------------------------------------------------------------------
// Running operations for the caller inside the line's transaction (shared with device-lines.ts).

const lineApps = new WeakMap<LineWork, AppDeps>();

/**
 * The application a line's operations run with. runCommand authorises on the line's transaction
 * (src/http/run-command.ts). On the embedded database the ports' own records (port_records) are
 * in the one session the line's transaction holds: the ports of a line are made on its transaction
 * (the savepoint's rollback then takes them back as well; the undo steps still run, for a port that
 * is truly external such as Kamailio). On a PostgreSQL server the ports stay the instance's: their
 * changes are outside the line, and only the undo steps take them back.
 */
export function lineApp(work: LineWork): AppDeps {
  const made = lineApps.get(work);
  if (made) return made;
  const base = work.app;
  const tx = work.tx;
  let app = base;
  if (tx !== base.database.db && base.database.kind === 'embedded') {
    const database: Database = { ...databaseOn(base.database, tx), db: tx };
    const deps = { database, config: base.config, now: base.now };
    app = { ...base, database, background: base.background && { ...base.background, ports: createPorts(deps) } };
  }
  lineApps.set(work, app);
  return app;
}

/** The voice platform the line's operations use (see lineApp). */
export const voiceOf = (work: LineWork): VoicePort => portsOf(lineApp(work)).voice;

/** Runs an operation for the line's caller, in the line's transaction. */
export function runForLine(work: LineWork, op: AnyOperation, call: CommandCall): Promise<unknown> {
  return runCommand(lineApp(work), op, call, { callerId: work.callerId, db: work.tx, log: work.log });
}

/** The undo steps of a line, for undoNow; each runs once. */
const undoSteps = new WeakMap<LineWork, (() => Promise<void>)[]>();

/** Registers an undo step whose failure is logged, never thrown (the line's failure is what counts). */
export function undoStep(work: LineWork, what: string, step: () => Promise<unknown>): void {
  let done = false;
  const run = async () => {
    if (done) return;
    try {
      await step();
      done = true;
    } catch (err) {
      work.log.error({ err: errorMessage(err), what }, 'imports: an undo step of a failed line failed');
    }
  };
  work.onFailure(run);
  const steps = undoSteps.get(work) ?? [];
  steps.push(run);
  undoSteps.set(work, steps);
}

/**
 * Runs the line's undo steps at once, last first, before its savepoint is rolled back. On the
 * embedded database the line's ports keep their records in its transaction (lineApp): after the
 * rollback, Kamailio's port no longer knows the device account the line made on Kamailio, and the
 * step could not delete it. A step that fails here runs again after the rollback (the engine's turn).
 */
async function undoNow(work: LineWork): Promise<void> {
  const steps = undoSteps.get(work) ?? [];
  undoSteps.delete(work);
  for (const run of steps.reverse()) await run();
}

/** A sub-report of the line (document 3, Import report: action, userId, companyId, status, origin). */
export function subReport(work: LineWork, user: LineUser, action: string, origin: Record<string, unknown>): SubReport {
  return {
    action,
    ...(user.id ? { userId: user.id } : {}),
    companyId: work.companyId,
    status: 'done',
    origin,
  };
}

type ReportKey = keyof SubReports;

/** The failure of the line at that sub-report, with a line error. */
export function failWith(reports: SubReports, key: ReportKey, report: SubReport, error: LineError): never {
  reports[key] = { ...report, status: 'failed', error };
  throw new LineFailure(error, reports);
}

export function failLine(
  reports: SubReports,
  key: ReportKey,
  report: SubReport,
  errorKey: LineErrorKey,
  values: Record<string, string | number> = {},
): never {
  return failWith(reports, key, report, lineError(errorKey, values));
}

/**
 * Runs a step of the sub-report: a refusal of an operation (an AppError) fails the line with its
 * catalogue code and message (errorOutcome: what its HTTP answer would carry); anything else
 * (a fault) goes on as it is.
 */
export async function inStep<T>(
  reports: SubReports,
  key: ReportKey,
  report: SubReport,
  fn: () => Promise<T>,
): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) {
      const e = errorOutcome(err);
      failWith(reports, key, report, { code: e.errorDetailsCode, message: e.errorMsg });
    }
    throw err;
  }
}

const idOf = (result: unknown): string => {
  const id = field(result, 'id');
  if (typeof id !== 'string') throw new Error('the operation answered no id');
  return id;
};

// ---------------------------------------------------------------------------------------------
// The voice mode.

/** The CloudPBX of the company (document 2: at most one), or undefined. */
export async function cloudPbxOfCompany(exec: Executor, companyId: string): Promise<{ id: string } | undefined> {
  const row = await pbx.cloudPbxOfCompany(exec, companyId);
  return row ? { id: row.id } : undefined;
}

type Pbx = NonNullable<Awaited<ReturnType<typeof pbx.cloudPbxOfCompany>>>;
type Subscriber = NonNullable<Awaited<ReturnType<typeof pbx.subscriberOfUser>>>;

interface VoiceLine {
  work: LineWork;
  line: ImportLine;
  user: LineUser;
  pbx: Pbx;
  reports: SubReports;
  sync: boolean;
  /** The user's subscriber (after the subscriber step: made by the line, or in a check, to be made). */
  subscriber: Subscriber | undefined;
  /** In a check: the subscriber the line would make (no row). */
  wouldSubscribe: boolean;
}

const NO_VOICE = { reports: {} };

/**
 * The voice of a line of importVoiceCsv (upsert or sync): the subscriber, then the SIP device,
 * then the DDI number, then the SIP headers. A failure throws a LineFailure carrying the
 * sub-reports made so far and the failed one; the engine rolls the line back and runs the undo
 * steps registered here.
 */
export async function applyVoice(work: LineWork, line: ImportLine, user: LineUser): Promise<{ reports: SubReports }> {
  const v = line.voice;
  if (!v) return NO_VOICE;
  const sync = line.action === 'sync';
  const filled = [v.shortNumber, v.ddiE164Number, v.macAddress, v.customSipHeader_1, v.customSipHeader_2].some(
    (c) => c !== null && c !== undefined,
  );
  const found = await pbx.cloudPbxOfCompany(work.tx, work.companyId);
  if (!found) {
    // A sync line's empty cells clear what the user has on the CloudPBX: with none, there is none.
    if (!filled) return NO_VOICE;
    const column =
      (['shortNumber', 'macAddress', 'ddiE164Number', 'customSipHeader_1', 'customSipHeader_2'] as const).find(
        (c) => v[c] !== null && v[c] !== undefined,
      ) ?? 'shortNumber';
    const reports: SubReports = {};
    failLine(
      reports,
      '_subscriber',
      subReport(work, user, 'create', { [column]: v[column], state: 'absent' }),
      'CLOUDPBX_MISSING',
      {
        column,
      },
    );
  }
  const subscriber = user.id ? await pbx.subscriberOfUser(work.tx, found.id, user.id) : undefined;
  const s: VoiceLine = { work, line, user, pbx: found, reports: {}, sync, subscriber, wouldSubscribe: false };
  try {
    await subscriberStep(s);
    await deviceStep(s);
    await ddiStep(s);
    await headersStep(s);
  } catch (err) {
    await undoNow(work);
    throw err;
  }
  return { reports: s.reports };
}

/** The subscriber exists, or (in a check) would. */
const isSubscriber = (s: VoiceLine) => s.subscriber !== undefined || s.wouldSubscribe;

/**
 * shortNumber: the user becomes a subscriber with it (createSubscriber). Already one with that
 * number: unchanged; with another: refused (2012: a subscriber's number is not changed by an
 * import; detach him first). Empty: the subscriber stays as he is, even on a sync line
 * (decisions: removing a subscriber is the `detach` action's).
 */
async function subscriberStep(s: VoiceLine): Promise<void> {
  const { work, user, reports } = s;
  const shortNumber = s.line.voice?.shortNumber ?? null;
  if (shortNumber === null) return;
  const origin = { shortNumber, state: s.subscriber ? 'subscriber' : 'absent' };
  if (s.subscriber) {
    const report = subReport(work, user, 'none', origin);
    if (s.subscriber.shortNumber !== shortNumber)
      failLine(reports, '_subscriber', report, 'SHORT_NUMBER_REFUSED', {
        reason: `the user is a subscriber with the short number ${s.subscriber.shortNumber} already; detach him first to change it`,
      });
    reports._subscriber = report;
    return;
  }
  const report = subReport(work, user, 'create', origin);
  // A subscriber needs a licence of a subscription other than the default one (issue 25, point
  // 4): a user without one (a user the line makes holds only the default licence) is given one of
  // the company's first such subscription with a licence free, as an administrator would
  // (assignUserLicence); with none, the line fails as createSubscriber refuses (409820).
  const needsLicence = !user.id || !(await holdsServiceLicence(work.tx, user.id));
  const seat = needsLicence ? await serviceSubscriptionWithSeat(work.tx, work.companyId) : undefined;
  const withLicence = seat ? { ...report, licence: { subscriptionId: seat.id, offer: seat.name } } : report;
  if (work.dryRun) {
    await inStep(reports, '_subscriber', withLicence, async () => {
      await pbx.checkSubscriberCreation(work.tx, s.pbx, needsLicence ? null : user.id, shortNumber);
      if (needsLicence && !seat) fail('PBX_SUBSCRIBER_NO_LICENCE', { userId: user.id });
    });
    s.wouldSubscribe = true;
    reports._subscriber = withLicence;
    return;
  }
  const userId = user.id ?? '';
  await inStep(reports, '_subscriber', withLicence, async () => {
    if (seat) await runForLine(work, assignUserLicence, { params: { userId, subscriptionId: seat.id } });
    await runForLine(work, pbx.createSubscriber, { params: { systemId: s.pbx.id }, body: { userId, shortNumber } });
  });
  const made = await pbx.subscriberOfUser(work.tx, s.pbx.id, userId);
  if (!made) throw new Error('the subscriber made is not found');
  // The platform's subscriber is outside the line: it goes if the line fails.
  const voice = voiceOf(work);
  undoStep(work, 'voice platform subscriber', () => voice.deleteSubscriber(made.vcpSubscriberId));
  s.subscriber = made;
  reports._subscriber = { ...withLicence, subscriberId: made.id };
}

/** The device's account as it was, and the undo step that puts it back after the line changed it. */
async function restoreAccountOnFailure(work: LineWork, deviceId: string): Promise<void> {
  const voice = voiceOf(work);
  const before = await voice.getDeviceAccount(deviceId);
  undoStep(work, 'registrar device account', async () => {
    const now = await voice.getDeviceAccount(deviceId);
    if (!before) {
      if (now) await voice.deleteDeviceAccount(deviceId);
    } else if (now && now.enabled !== before.enabled) await voice.setDeviceAccountEnabled(deviceId, before.enabled);
  });
}

/** Unassigns the subscriber's devices but `keep` (a sync line): their accounts are disabled, re-enabled if the line fails. */
async function unassignDevices(s: VoiceLine, report: SubReport, keep: string | undefined): Promise<number> {
  const { work, reports } = s;
  if (!s.subscriber) return 0;
  const sub = s.subscriber;
  const others = (await pbx.devicesOfSubscriber(work.tx, sub.id)).filter((d) => d.id !== keep);
  if (work.dryRun) return others.length;
  for (const d of others) {
    await restoreAccountOnFailure(work, d.id);
    await inStep(reports, '_sipDevice', report, () =>
      runForLine(work, pbx.unassignDeviceFromSubscriber, {
        params: { systemId: s.pbx.id, phoneNumberId: sub.id, deviceId: d.id },
      }),
    );
  }
  return others.length;
}

/** The description of a device the import makes: its user's name (document 2: description required). */
async function deviceDescription(work: LineWork, user: LineUser, line: ImportLine): Promise<string> {
  let name = [line.user.firstName, line.user.lastName].filter(Boolean).join(' ');
  if (user.id) {
    const [r] = await work.tx.select({ n: userNamesOf(sql`${user.id}`) }).from(sql`(SELECT 1) AS one`);
    if (r?.n?.displayName) name = r.n.displayName;
  }
  return `SIP device of ${name || line.login}`.slice(0, 255);
}

/**
 * macAddress: the SIP device of that MAC address on this CloudPBX (made when absent: createDevice,
 * deviceTypeId default 999999), assigned to the subscriber (assignDeviceToSubscriber). The user
 * must be a subscriber (2011). A sync line unassigns his other devices; an empty cell on a sync
 * line unassigns them all.
 */
async function deviceStep(s: VoiceLine): Promise<void> {
  const { work, user, reports } = s;
  const v = s.line.voice;
  const raw = v?.macAddress ?? null;
  if (raw === null) {
    // An empty cell clears on a sync line; a column the header lacks changes nothing.
    if (!s.sync || v?.macAddress === undefined || !s.subscriber) return;
    const report = subReport(work, user, 'unassign', { macAddress: null, state: 'assigned' });
    const n = await unassignDevices(s, report, undefined);
    if (n > 0) reports._sipDevice = { ...report, count: n };
    return;
  }
  const deviceTypeId = v?.deviceTypeId ?? pbx.GENERIC_SIP_MODEL_ID;
  const base = subReport(work, user, 'assign', { macAddress: raw, state: 'absent' });
  if (!isSubscriber(s)) failLine(reports, '_sipDevice', base, 'SUBSCRIBER_REQUIRED');
  const mac = await inStep(reports, '_sipDevice', base, async () => pbx.normaliseMac(raw));
  const existing = await pbx.deviceWithMac(work.tx, mac);
  const sub = s.subscriber;
  if (existing) {
    const state =
      existing.subscriberId === null
        ? 'unassigned'
        : existing.subscriberId === sub?.id
          ? 'assigned'
          : 'assigned_to_other';
    const report = { ...base, origin: { macAddress: mac, state }, deviceId: existing.id };
    // The refusals the operations would give, given here in a check too (409830, 409831).
    if (existing.cloudPbxId !== s.pbx.id)
      await inStep(reports, '_sipDevice', report, async () => {
        throw new AppError('DEVICE_MAC_TAKEN', { field: 'macAddress', macAddress: mac });
      });
    if (state === 'assigned_to_other')
      await inStep(reports, '_sipDevice', report, async () => {
        throw new AppError('DEVICE_ASSIGNED', { id: existing.id, phoneNumberId: existing.subscriberId });
      });
    if (s.sync) await unassignDevices(s, report, existing.id);
    if (state === 'assigned') {
      reports._sipDevice = { ...report, action: 'none' };
      return;
    }
    if (!work.dryRun && sub) await assignDevice(s, sub, existing.id, report);
    reports._sipDevice = report;
    return;
  }
  const report = { ...base, action: 'create', origin: { macAddress: mac, state: 'absent' } };
  await inStep(reports, '_sipDevice', report, async () => pbx.modelOf(deviceTypeId));
  if (s.sync) await unassignDevices(s, report, undefined);
  if (work.dryRun || !sub) {
    reports._sipDevice = report;
    return;
  }
  const description = await deviceDescription(work, user, s.line);
  const made = await inStep(reports, '_sipDevice', report, () =>
    runForLine(work, pbx.createDevice, {
      params: { systemId: s.pbx.id },
      body: { description, deviceTypeId, macAddress: mac },
    }),
  );
  const deviceId = idOf(made);
  // Its account on the registrar is outside the line: it goes if the line fails.
  const voice = voiceOf(work);
  undoStep(work, 'registrar device account', () => voice.deleteDeviceAccount(deviceId));
  await assignDevice(s, sub, deviceId, { ...report, deviceId });
  reports._sipDevice = { ...report, deviceId };
}

async function assignDevice(s: VoiceLine, sub: Subscriber, deviceId: string, report: SubReport): Promise<void> {
  const { work, reports } = s;
  // The assignment enables the device's account (issue 25, point 8): disabled again if the line fails.
  await restoreAccountOnFailure(work, deviceId);
  await inStep(reports, '_sipDevice', report, () =>
    runForLine(work, pbx.assignDeviceToSubscriber, {
      params: { systemId: s.pbx.id, phoneNumberId: sub.id },
      body: { deviceId },
    }),
  );
}

/** Unassigns the user's DDI numbers but `keep` (database only: the rollback undoes it). */
async function unassignDdis(s: VoiceLine, report: SubReport, keep: string | undefined): Promise<number> {
  const { work, reports, user } = s;
  if (!user.id) return 0;
  const userId = user.id;
  const others = (await pbx.ddisOfUser(work.tx, s.pbx.id, userId)).filter((d) => d.id !== keep);
  if (work.dryRun) return others.length;
  for (const d of others)
    await inStep(reports, '_ddi', report, () =>
      runForLine(work, pbx.unassignDdiFromUser, { params: { systemId: s.pbx.id, phoneNumberId: d.id, userId } }),
    );
  return others.length;
}

/**
 * ddiE164Number: the DDI number of the CloudPBX (made when absent: createDdi), assigned to the
 * user (assignDdiToUser), who must be a subscriber (2016). A sync line unassigns his other DDI
 * numbers; an empty cell on a sync line unassigns them all.
 */
async function ddiStep(s: VoiceLine): Promise<void> {
  const { work, user, reports } = s;
  const raw = s.line.voice?.ddiE164Number ?? null;
  if (raw === null) {
    if (!s.sync || s.line.voice?.ddiE164Number === undefined || !user.id) return;
    const report = subReport(work, user, 'unassign', { ddiE164Number: null, state: 'assigned' });
    const n = await unassignDdis(s, report, undefined);
    if (n > 0) reports._ddi = { ...report, count: n };
    return;
  }
  const base = subReport(work, user, 'assign', { ddiE164Number: raw, state: 'absent' });
  if (!isSubscriber(s)) failLine(reports, '_ddi', base, 'NOT_SUBSCRIBER', { column: 'ddiE164Number' });
  const numberE164 = await inStep(reports, '_ddi', base, () => pbx.ddiE164(work.tx, s.pbx.id, raw));
  const existing = await pbx.ddiWithE164(work.tx, numberE164);
  const userId = user.id;
  if (existing) {
    const state =
      existing.userId === null ? 'unassigned' : existing.userId === userId ? 'assigned' : 'assigned_to_other';
    const report = { ...base, origin: { ddiE164Number: numberE164, state }, ddiId: existing.id };
    if (existing.cloudPbxId !== s.pbx.id)
      await inStep(reports, '_ddi', report, async () => {
        throw new AppError('DDI_NUMBER_TAKEN', { field: 'number', numberE164 });
      });
    if (state === 'assigned_to_other')
      await inStep(reports, '_ddi', report, async () => {
        throw new AppError('DDI_ALREADY_ASSIGNED', { phoneNumberId: existing.id });
      });
    if (s.sync) await unassignDdis(s, report, existing.id);
    if (state === 'assigned') {
      reports._ddi = { ...report, action: 'none' };
      return;
    }
    if (!work.dryRun && userId)
      await inStep(reports, '_ddi', report, () =>
        runForLine(work, pbx.assignDdiToUser, { params: { systemId: s.pbx.id, phoneNumberId: existing.id, userId } }),
      );
    reports._ddi = report;
    return;
  }
  const report = { ...base, action: 'create', origin: { ddiE164Number: numberE164, state: 'absent' } };
  if (s.sync) await unassignDdis(s, report, undefined);
  if (work.dryRun || !userId) {
    reports._ddi = report;
    return;
  }
  const made = await inStep(reports, '_ddi', report, () =>
    runForLine(work, pbx.createDdi, { params: { systemId: s.pbx.id }, body: { number: raw } }),
  );
  const ddiId = idOf(made);
  await inStep(reports, '_ddi', report, () =>
    runForLine(work, pbx.assignDdiToUser, { params: { systemId: s.pbx.id, phoneNumberId: ddiId, userId } }),
  );
  reports._ddi = { ...report, ddiId };
}

/**
 * customSipHeader_1 and _2: the subscriber's custom SIP headers (updateSubscriberSipHeaders). An
 * upsert line sets the filled ones; a sync line sets both, an empty cell clearing its header.
 * Reported in `_subscriber` (action `update` when they change). Setting one needs a subscriber (2016).
 */
async function headersStep(s: VoiceLine): Promise<void> {
  const { work, user, reports } = s;
  const v = s.line.voice;
  if (!v) return;
  const wanted: { customSipHeader_1?: string | null; customSipHeader_2?: string | null } = {};
  if (v.customSipHeader_1 !== undefined && (v.customSipHeader_1 !== null || s.sync))
    wanted.customSipHeader_1 = v.customSipHeader_1;
  if (v.customSipHeader_2 !== undefined && (v.customSipHeader_2 !== null || s.sync))
    wanted.customSipHeader_2 = v.customSipHeader_2;
  const current = {
    customSipHeader_1: s.subscriber?.customSipHeader1 ?? null,
    customSipHeader_2: s.subscriber?.customSipHeader2 ?? null,
  };
  const changed = (['customSipHeader_1', 'customSipHeader_2'] as const).filter(
    (k) => k in wanted && wanted[k] !== current[k],
  );
  if (changed.length === 0) return;
  const previous = reports._subscriber;
  const origin = { ...(previous?.origin ?? { state: isSubscriber(s) ? 'subscriber' : 'absent' }), ...wanted };
  const report: SubReport = previous ? { ...previous, origin } : subReport(work, user, 'update', origin);
  if (!isSubscriber(s)) {
    // Clearing the headers of a user who is no subscriber changes nothing.
    if (changed.every((k) => wanted[k] === null)) return;
    failLine(reports, '_subscriber', report, 'NOT_SUBSCRIBER', {
      column: changed.find((k) => wanted[k] !== null) ?? 'customSipHeader_1',
    });
  }
  const sub = s.subscriber;
  if (!work.dryRun && sub)
    await inStep(reports, '_subscriber', report, () =>
      runForLine(work, pbx.updateSubscriberSipHeaders, {
        params: { systemId: s.pbx.id, phoneNumberId: sub.id },
        body: wanted,
      }),
    );
  reports._subscriber = report.action === 'none' ? { ...report, action: 'update' } : report;
}

/**
 * The `detach` action in voice mode: the user stops being a subscriber of the CloudPBX
 * (deleteSubscriber: on the voice platform too; his DDI numbers and SIP devices are unassigned,
 * their accounts disabled). The user stays. Not a subscriber: 2017.
 */
export async function detachVoice(work: LineWork, line: ImportLine, user: LineUser): Promise<{ reports: SubReports }> {
  const reports: SubReports = {};
  const found = await pbx.cloudPbxOfCompany(work.tx, work.companyId);
  const sub = found && user.id ? await pbx.subscriberOfUser(work.tx, found.id, user.id) : undefined;
  const report = subReport(work, user, 'delete', {
    shortNumber: sub?.shortNumber ?? line.voice?.shortNumber ?? null,
    state: sub ? 'subscriber' : 'absent',
  });
  if (!found || !sub) return failLine(reports, '_subscriber', report, 'SUBSCRIBER_NOT_FOUND');
  if (!work.dryRun) {
    // Its devices' accounts are disabled by the deletion: enabled again if the line fails.
    for (const d of await pbx.devicesOfSubscriber(work.tx, sub.id)) await restoreAccountOnFailure(work, d.id);
    await inStep(reports, '_subscriber', report, () =>
      runForLine(work, pbx.deleteSubscriber, { params: { systemId: found.id, phoneNumberId: sub.id } }),
    );
  }
  reports._subscriber = { ...report, subscriberId: sub.id };
  return { reports };
}
