// The results kept per commandId (document 3; issue 27, point 5). Built by a helper session.
import type { Executor } from '../../db/client.ts';
import type { CommandContext } from '../../http/context.ts';

const todo = (): never => {
  throw new Error('not built yet');
};

export function checkReportOf(_target: unknown): never {
  return todo();
}
export function importReportOf(_db: Executor, _target: unknown): never {
  return todo();
}
export function createReport(_cmd: CommandContext<unknown>, _commandId: string, _body: unknown): never {
  return todo();
}

// Called by the engine (stubs until the helper's file lands).
export async function recordCheck(
  _exec: Executor,
  _r: { commandId: string; companyId: string; userId: string; report: Record<string, unknown>; now: Date },
): Promise<void> {}
export async function recordImport(
  _exec: Executor,
  _r: { commandId: string; companyId: string; userId: string; reqId: string; now: Date },
): Promise<void> {}
export async function commandEnded(_exec: Executor, _r: { commandId: string; userId: string }): Promise<void> {}
