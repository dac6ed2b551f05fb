// LIKE patterns built from user text: its wildcards (%, _) and the escape character are matched
// literally (PostgreSQL's default escape is the backslash).
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
