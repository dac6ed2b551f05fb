// CSV templates and the export of a company's users (issue 27, point 6). Built by a helper session.
const todo = (): never => {
  throw new Error('not built yet');
};
export function template(_cmd: unknown, _query: unknown): never {
  return todo();
}
export function exportUsers(_cmd: unknown, _query: unknown): never {
  return todo();
}
