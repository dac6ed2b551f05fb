// The PBX extension of an import line (issue 27, point 2; document 3, Bulk import, modes device and
// useranddevice): a phone number of a telephone system of the company (document 3, Phone numbers
// of a system), attached to the line's user by updateSystemPhoneNumber (userId), run for the
// caller in the line's transaction (voice-lines.ts, runForLine). "upsert ... attaches a device by
// force when filled; sync ... detaches a device when empty; detach (detach a PBX extension from a
// user)"; counted: attach, force_attach, detach. The gateway of the system is told of each change
// (the operation waits for its acknowledgement); if the line fails afterwards, it is told again of
// the number as the rollback left it.
import type { DeviceFields, ImportLine } from './columns.ts';
import { lineError } from './line-errors.ts';
import {
  LineFailure,
  type DeviceAction,
  type LineUser,
  type LineWork,
  type SubReport,
  type SubReports,
} from './lines.ts';
import {
  companyPhoneNumbers,
  updateSystemPhoneNumber,
  userPhoneNumbers,
  type CompanyPhoneNumber,
} from '../systems/systems.api.ts';
import { failLine, inStep, runForLine, subReport, undoStep } from './voice-lines.ts';

/** The origin of a `_device` sub-report: the extension's numbers and what it was before the line. */
const originOf = (n: CompanyPhoneNumber, state: string) => ({
  pbxShortNumber: n.shortNumber,
  pbxInternalNumber: n.internalNumber,
  systemId: n.systemId,
  phoneNumberId: n.id,
  state,
});

/** The column(s) of the cells that name the extension (for the messages of 3001 and 3002). */
const columnsOf = (d: DeviceFields) =>
  [d.pbxShortNumber !== null ? 'pbxShortNumber' : '', d.pbxInternalNumber !== null ? 'pbxInternalNumber' : '']
    .filter(Boolean)
    .join(' and ');

/**
 * The phone number the cells name among the company's systems: by short number and/or internal
 * number (both given: both must match). None: 3001; several (several systems have it, or an
 * internal number several numbers share): 3002, unless both columns single one out.
 */
async function extensionOf(
  work: LineWork,
  user: LineUser,
  d: DeviceFields,
  action: string,
): Promise<CompanyPhoneNumber> {
  const found = await companyPhoneNumbers(work.tx, work.companyId, {
    shortNumber: d.pbxShortNumber,
    internalNumber: d.pbxInternalNumber,
  });
  if (found.length === 1) return found[0];
  const report = subReport(work, user, action, {
    pbxShortNumber: d.pbxShortNumber,
    pbxInternalNumber: d.pbxInternalNumber,
    state: found.length === 0 ? 'absent' : 'ambiguous',
  });
  return failLine({}, '_device', report, found.length === 0 ? 'EXTENSION_NOT_FOUND' : 'EXTENSION_AMBIGUOUS', {
    column: columnsOf(d),
  });
}

/**
 * Links the number to the user (or unlinks it: null) through updateSystemPhoneNumber, for the
 * caller. If the line fails afterwards, its rollback restores the row, and the gateway is told
 * again of the number as it then is (the same operation with its previous user: nothing to
 * store, the gateway's acknowledgement only).
 */
async function linkNumber(
  work: LineWork,
  reports: SubReports,
  report: SubReport,
  n: CompanyPhoneNumber,
  userId: string | null,
): Promise<void> {
  const params = { systemId: n.systemId, phoneNumberId: n.id };
  await inStep(reports, '_device', report, () =>
    runForLine(work, updateSystemPhoneNumber, { params, body: { userId } }),
  );
  undoStep(work, 'telephone system gateway', () =>
    runForLine(work, updateSystemPhoneNumber, { params, body: { userId: n.userId } }),
  );
}

/**
 * The PBX extension of a line of the device modes (upsert or sync). Filled cells: the extension
 * they name is attached to the user, by force (`force_attach`) when another user had it (upsert
 * and sync alike: document 3). Already his: nothing changes, nothing is counted. A sync line with
 * both cells empty detaches his extensions (`detach`; none: nothing, no error).
 */
export async function applyDevice(
  work: LineWork,
  line: ImportLine,
  user: LineUser,
): Promise<{ reports: SubReports; deviceAction?: DeviceAction }> {
  const d = line.device;
  if (!d) return { reports: {} };
  if (d.pbxShortNumber === null && d.pbxInternalNumber === null) {
    if (line.action !== 'sync' || !user.id) return { reports: {} };
    const attached = await userPhoneNumbers(work.tx, work.companyId, user.id);
    if (attached.length === 0) return { reports: {} };
    return { reports: await detachNumbers(work, user, attached), deviceAction: 'detach' };
  }
  const n = await extensionOf(work, user, d, 'attach');
  const reports: SubReports = {};
  if (user.id !== null && n.userId === user.id) {
    // Already his: reported, not counted.
    reports._device = subReport(work, user, 'attach', originOf(n, 'attached_to_user'));
    return { reports };
  }
  const action: DeviceAction = n.userId === null ? 'attach' : 'force_attach';
  const report = subReport(work, user, action, {
    ...originOf(n, n.userId === null ? 'free' : 'attached_to_other_user'),
    ...(n.userId === null ? {} : { previousUserId: n.userId }),
  });
  if (!work.dryRun) {
    if (user.id === null) throw new Error('the user of an imported line has no id');
    await linkNumber(work, reports, report, n, user.id);
  }
  reports._device = report;
  return { reports, deviceAction: action };
}

/** Detaches these numbers from the user: one `_device` sub-report naming the first (and how many). */
async function detachNumbers(work: LineWork, user: LineUser, numbers: CompanyPhoneNumber[]): Promise<SubReports> {
  const reports: SubReports = {};
  const report = {
    ...subReport(work, user, 'detach', originOf(numbers[0], 'attached_to_user')),
    ...(numbers.length > 1 ? { count: numbers.length } : {}),
  };
  if (!work.dryRun) for (const n of numbers) await linkNumber(work, reports, report, n, null);
  reports._device = report;
  return reports;
}

/**
 * The `detach` action: the extension the cells name is detached from the user (it must be his:
 * 3003 otherwise); with no cell filled, every extension of his. None: 3003.
 */
export async function detachDevice(
  work: LineWork,
  line: ImportLine,
  user: LineUser,
): Promise<{ reports: SubReports; deviceAction: 'detach' }> {
  const d = line.device;
  const named = d && (d.pbxShortNumber !== null || d.pbxInternalNumber !== null);
  const report = subReport(work, user, 'detach', {
    pbxShortNumber: d?.pbxShortNumber ?? null,
    pbxInternalNumber: d?.pbxInternalNumber ?? null,
    state: 'not_attached',
  });
  let numbers: CompanyPhoneNumber[];
  if (named) {
    const n = await extensionOf(work, user, d, 'detach');
    numbers = user.id !== null && n.userId === user.id ? [n] : [];
  } else numbers = user.id ? await userPhoneNumbers(work.tx, work.companyId, user.id) : [];
  if (numbers.length === 0) {
    const error = lineError('EXTENSION_NOT_ATTACHED');
    throw new LineFailure(error, { _device: { ...report, status: 'failed', error } });
  }
  return { reports: await detachNumbers(work, user, numbers), deviceAction: 'detach' };
}
