// The check of a CSV (document 3: a dry run). Being built.
export type CheckRoute = 'check' | 'checkSync' | 'checkVoice';
export function checkCsv(_cmd: unknown, _route: CheckRoute, _query: unknown, _upload: unknown): never {
  throw new Error('not built yet');
}
