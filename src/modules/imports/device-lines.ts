// The PBX extension of a device-mode line. Being built by a helper session.
import type { ImportLine } from './columns.ts';
import type { DeviceAction, LineUser, LineWork, SubReports } from './lines.ts';
export async function applyDevice(
  _work: LineWork,
  _line: ImportLine,
  _user: LineUser,
): Promise<{ reports: SubReports; deviceAction?: DeviceAction }> {
  throw new Error('not built yet');
}
export async function detachDevice(
  _work: LineWork,
  _line: ImportLine,
  _user: LineUser,
): Promise<{ reports: SubReports; deviceAction: 'detach' }> {
  throw new Error('not built yet');
}
