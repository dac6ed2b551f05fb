// The `format` query of document 1: small, medium or full. Each resource declares which fields
// the smaller levels keep; full returns every documented field. Without `format`, an operation
// answers at the default its declaration gives (document 3 gives some), else a list at `small`
// and a single resource at `full` (src/http/operation.ts). The levels of each resource are
// written in docs/formats.md.
import { Type, type Static, type TSchema } from 'typebox';

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

/** The mark of an item loaded for the `small` level only (`smallItems`). */
export const SMALL_ONLY: unique symbol = Symbol('small level only');

/**
 * An item of a list that read only the fields its `small` level keeps (listCompanies at
 * format=small reads id and name alone: docs/formats.md). A list's items are otherwise its full
 * item type (src/http/operation.ts, HandlerResult); the mark keeps a partial item from passing for
 * a full one by mistake, and the answer's projection to the level drops it.
 */
export type SmallItem<T> = Partial<T> & { readonly [SMALL_ONLY]: true };

/** Rows holding the fields of `levels.small` (checked against the schema), as small items of that schema. */
export function smallItems<R extends TSchema, K extends keyof Static<R>>(
  _schema: R,
  levels: { readonly small: readonly K[] },
  rows: readonly Pick<Static<R>, K>[],
): SmallItem<Static<R>>[] {
  return markSmall<Static<R>, K>(levels.small, rows);
}

function markSmall<T, K extends keyof T>(keys: readonly K[], rows: readonly Pick<T, K>[]): SmallItem<T>[] {
  return rows.map((r) => {
    const item: Partial<T> = {};
    for (const k of keys) item[k] = r[k];
    return Object.assign(item, { [SMALL_ONLY]: true as const });
  });
}

export function project(
  obj: Record<string, unknown>,
  levels: FormatLevels,
  level: FormatLevel,
): Record<string, unknown> {
  if (level === 'full') return obj;
  const keep = level === 'small' ? levels.small : levels.medium;
  const out: Record<string, unknown> = {};
  for (const k of keep) if (k in obj) out[k] = obj[k];
  return out;
}
