// The `format` query of document 1: small, medium or full. Each resource declares which fields
// the smaller levels keep; full returns every documented field. Without `format`, an operation
// answers at the default its declaration gives (document 3 gives some), else a list at `small`
// and a single resource at `full` (src/http/operation.ts). The levels of each resource are
// written in docs/formats.md.
import { Type } from 'typebox';

export type FormatLevel = 'small' | 'medium' | 'full';

export interface FormatLevels {
  small: readonly string[];
  medium: readonly string[];
  /**
   * The level used when the query does not name one (document 3 sets `small` for getCompany,
   * `full` for getDefaultCompany). Unset: `small` for lists, `full` for a single resource.
   */
  default?: FormatLevel;
}

/** The `format` query parameter; `def` is the default level the operation answers at. */
export const formatQuery = (def: FormatLevel = 'small') =>
  Type.Optional(
    Type.String({ description: `small, medium or full; default ${def}. Unknown values fall back to the default` }),
  );

export function formatLevel(raw: unknown, def: FormatLevel): FormatLevel {
  return raw === 'small' || raw === 'medium' || raw === 'full' ? raw : def;
}

export function project<T extends Record<string, unknown>>(
  obj: T,
  levels: FormatLevels,
  level: FormatLevel,
): Partial<T> {
  if (level === 'full') return obj;
  const keep = level === 'small' ? levels.small : levels.medium;
  const out: Record<string, unknown> = {};
  for (const k of keep) if (k in obj) out[k] = obj[k];
  return out as Partial<T>;
}
