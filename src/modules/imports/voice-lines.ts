// The voice part of a voice-mode line. Being built by a helper session.
import type { Executor } from '../../db/client.ts';
import type { ImportLine } from './columns.ts';
import type { LineUser, LineWork, SubReports } from './lines.ts';
export async function cloudPbxOfCompany(_exec: Executor, _companyId: string): Promise<{ id: string } | undefined> {
  throw new Error('not built yet');
}
export async function applyVoice(
  _work: LineWork,
  _line: ImportLine,
  _user: LineUser,
): Promise<{ reports: SubReports }> {
  throw new Error('not built yet');
}
export async function detachVoice(
  _work: LineWork,
  _line: ImportLine,
  _user: LineUser,
): Promise<{ reports: SubReports }> {
  throw new Error('not built yet');
}
