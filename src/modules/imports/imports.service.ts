// Import requests: start, reports, list, delete. Being built.
import type { Executor } from '../../db/client.ts';
import type { FilesPort } from '../../ports/files/files.port.ts';
import type { ImportRoute } from './imports.tables.ts';
export type StartRoute = ImportRoute;
const todo = (): never => {
  throw new Error('not built yet');
};
export function startImport(_cmd: unknown, _route: StartRoute, _query: unknown, _upload: unknown): never {
  return todo();
}
export function listImports(_db: Executor, _companyId: string): never {
  return todo();
}
export function importReport(_db: Executor, _target: unknown, _format: 'small' | 'full'): never {
  return todo();
}
export function deleteReport(_db: Executor, _files: FilesPort, _target: unknown): never {
  return todo();
}
