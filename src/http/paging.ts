// List paging of document 1: limit (default 100, capped at 1000), offset (default 0),
// sortField, sortOrder (1 or -1). Non-numeric or unknown values fall back to their defaults,
// as clients of the original interface expect, instead of failing.
import { Type } from 'typebox';
import { isOneOf } from '../shared/json-values.ts';

export const MAX_LIMIT = 1000;
export const DEFAULT_LIMIT = 100;

const lenientInt = (description: string) => Type.Optional(Type.Union([Type.Integer(), Type.String()], { description }));

export function pagingQuery<F extends string>(sortFields: readonly F[], defaultSort: F) {
  return {
    limit: lenientInt(
      `page size, default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}; non-numeric falls back to the default`,
    ),
    offset: lenientInt('number of items skipped, default 0'),
    sortField: Type.Optional(Type.String({ description: `one of ${sortFields.join(', ')}; default ${defaultSort}` })),
    sortOrder: lenientInt('1 ascending (default) or -1 descending'),
  };
}

export interface Paging<F extends string> {
  limit: number;
  offset: number;
  sortField: F;
  sortOrder: 1 | -1;
}

function toInt(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return undefined;
}

export function parsePaging<F extends string>(
  q: { limit?: unknown; offset?: unknown; sortField?: unknown; sortOrder?: unknown },
  sortFields: readonly F[],
  defaultSort: F,
): Paging<F> {
  const limit = toInt(q.limit);
  const offset = toInt(q.offset);
  const order = toInt(q.sortOrder);
  return {
    limit: limit === undefined || limit < 1 ? DEFAULT_LIMIT : Math.min(limit, MAX_LIMIT),
    offset: offset === undefined || offset < 0 ? 0 : offset,
    sortField: isOneOf(sortFields, q.sortField) ? q.sortField : defaultSort,
    sortOrder: order === -1 ? -1 : 1,
  };
}

/** The result of a list operation, as the `list` envelope of document 1 expects it. */
export function listResult<T>(items: T[], total: number, p: { limit: number; offset: number }) {
  return { items, total, limit: p.limit, offset: p.offset };
}

/**
 * The optional page of a list that document 1 answers whole (issue 28, point 9: lists of any size
 * page on the server). Clients of the original interface send neither parameter and get the whole
 * list as before; either one asks for a page, with the bounds and fallbacks of the other lists.
 */
export function optionalPageQuery() {
  return {
    limit: lenientInt(
      `(+) page size, default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}; non-numeric falls back to the default. Without limit and offset: the whole list`,
    ),
    offset: lenientInt('(+) number of items skipped, default 0'),
  };
}

export interface Page {
  limit: number;
  offset: number;
}

/** The page asked for, or undefined when neither limit nor offset is given (the whole list). */
export function parseOptionalPage(q: { limit?: unknown; offset?: unknown }): Page | undefined {
  if (q.limit === undefined && q.offset === undefined) return undefined;
  const { limit, offset } = parsePaging(q, ['none'], 'none');
  return { limit, offset };
}
