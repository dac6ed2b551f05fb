// Lossless coercion of request data to its schema, before Ajv validates it (Ajv runs with
// coerceTypes off). Ajv's own coercion is lossy and cannot be narrowed: `null` becomes "", 0 or
// false, `["x"]` becomes "x", and "" or false become null where null is allowed (a `false` sent
// for a nullable theme would clear it). Here, where the schema wants it:
//   - a string holding a number ("12", "-1.5") becomes that number, "true"/"false" a boolean, as
//     clients of the original interface send them (query strings are always text);
//   - a number or boolean becomes its text where only text is taken;
//   - a single value becomes a one-element list where a list is taken (a query key given once);
// and nothing else: `null` where the schema does not allow it, and a list where one value is
// taken (a query key repeated, `["x"]` in a body), are refused with 400 by this pass, whatever
// Ajv would have made of them. Everything else is left for Ajv to accept or refuse.

import { field, isOneOf, isRecord } from '../shared/json-values.ts';

// Schemas and their parts are read as values of unknown shape (a schema may be `true`, say).
type Schema = Record<string, unknown>;
const KINDS = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'] as const;
type Kind = (typeof KINDS)[number];

/** An error in Ajv's shape, so that the error handler renders it like any validation error. */
export interface CoercionError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

/** Schemas are the routes' own objects, fixed once registered: their kinds are read once. */
const known = new WeakMap<Schema, Set<Kind> | undefined>();

function kindsOf(s: unknown): Set<Kind> | undefined {
  if (!isRecord(s)) return undefined;
  if (!known.has(s)) known.set(s, readKinds(s));
  return known.get(s);
}

/** The kinds of JSON values a schema may accept; undefined: any (no type is said). */
function readKinds(s: unknown, seen = 0): Set<Kind> | undefined {
  if (!isRecord(s) || seen > 20) return undefined;
  const out = new Set<Kind>();
  const add = (k: Set<Kind> | undefined) => {
    if (!k) return false;
    for (const x of k) out.add(x);
    return true;
  };
  const addKind = (k: unknown) => {
    if (isOneOf(KINDS, k)) out.add(k);
  };
  const list = alternatives(s);
  if (typeof s.type === 'string') addKind(s.type);
  else if (Array.isArray(s.type)) for (const t of s.type) addKind(t);
  else if ('const' in s) addKind(valueKind(s.const));
  else if (Array.isArray(s.enum)) for (const v of s.enum) addKind(valueKind(v));
  else if (list) {
    for (const b of list) if (!add(readKinds(b, seen + 1))) return undefined;
  } else return undefined;
  if (s.nullable === true) out.add('null');
  if (out.has('integer')) out.add('number');
  return out;
}

/** The kind of a JSON value; undefined for a value JSON does not have. */
function valueKind(v: unknown): Kind | undefined {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'object') return 'object';
  return undefined;
}

/** Whether a value's kind is among `kinds`. */
const hasKindOf = (kinds: Set<Kind>, v: unknown): boolean => {
  const k = valueKind(v);
  return k !== undefined && kinds.has(k);
};

/** A schema's anyOf / oneOf branches, if it has a list of them. */
function alternatives(s: Schema): unknown[] | undefined {
  const list = s.anyOf ?? s.oneOf;
  return Array.isArray(list) ? list : undefined;
}

/** The branches of a schema that accept a kind (its anyOf / oneOf branches, or itself). */
function branches(s: unknown): unknown[] {
  const list = isRecord(s) ? alternatives(s) : undefined;
  return list ? list.flatMap(branches) : [s];
}

/** The schema of an object's property `key` (of any object branch), or undefined. */
function propertySchema(s: unknown, key: string): unknown {
  const found: unknown[] = [];
  for (const b of branches(s)) {
    if (!isRecord(b)) continue;
    const props = b.properties;
    if (isRecord(props) && Object.hasOwn(props, key)) found.push(props[key]);
    else if (b.patternProperties) {
      if (isRecord(b.patternProperties))
        for (const [pattern, p] of Object.entries(b.patternProperties))
          if (new RegExp(pattern, 'u').test(key)) found.push(p);
    } else if (b.additionalProperties && typeof b.additionalProperties === 'object') found.push(b.additionalProperties);
  }
  return found.length <= 1 ? found[0] : { anyOf: found };
}

function itemSchema(s: unknown): unknown {
  const found = branches(s)
    .map((b) => field(b, 'items'))
    .filter(isRecord);
  return found.length <= 1 ? found[0] : { anyOf: found };
}

/** A number written in decimal ("12", "-1.5", "1e3"); hexadecimal, blanks and the like are not numbers here. */
const NUMBER_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

const error = (
  path: string,
  keyword: string,
  message: string,
  params: Record<string, unknown> = {},
): CoercionError => ({
  instancePath: path,
  schemaPath: '#',
  keyword,
  params,
  message,
});

/** The value coerced to `kinds`, or `undefined` to leave it as it is (for Ajv to judge). */
function scalar(v: unknown, kinds: Set<Kind>): unknown {
  if (hasKindOf(kinds, v)) return undefined;
  if (typeof v === 'string') {
    if (kinds.has('number') && NUMBER_TEXT.test(v) && Number.isFinite(Number(v))) return Number(v);
    if (kinds.has('boolean') && (v === 'true' || v === 'false')) return v === 'true';
    return undefined;
  }
  if ((typeof v === 'number' || typeof v === 'boolean') && kinds.has('string')) return String(v);
  return undefined;
}

/**
 * Coerces `data` in place (object properties and list items) to `schema`; returns the errors of
 * null and list values the schema does not take, or undefined when there are none.
 */
export function coerce(schema: unknown, data: unknown): CoercionError[] | undefined {
  const errors: CoercionError[] = [];
  const walk = (s: unknown, v: unknown, path: string): unknown => {
    const kinds = kindsOf(s);
    if (!s || !kinds) return v;
    if (v === null) {
      if (!kinds.has('null'))
        errors.push(
          error(path, 'type', 'must not be null (this field cannot be cleared)', { type: [...kinds].join(',') }),
        );
      return v;
    }
    if (Array.isArray(v)) {
      if (!kinds.has('array')) {
        if (kinds.has('object')) return v;
        errors.push(error(path, 'type', 'must be a single value, not a list', { type: [...kinds].join(',') }));
        return v;
      }
      const items = itemSchema(s);
      for (let i = 0; i < v.length && errors.length === 0; i++) v[i] = walk(items, v[i], `${path}/${i}`);
      return v;
    }
    if (isRecord(v)) {
      if (!kinds.has('object')) return v;
      for (const key of Object.keys(v)) {
        if (errors.length) break;
        const p = propertySchema(s, key);
        if (p) v[key] = walk(p, v[key], `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      }
      return v;
    }
    // A byte-order mark opening a text value is an encoding mark, not text: dropped, so that the
    // value stored is the one read back (PGlite's decoder drops it when reading; the fuzz test
    // found a timezone of U+FEFF alone stored, then read back empty and refused by the answer's
    // schema: a 500 on every later answer holding that company).
    if (typeof v === 'string' && v.charCodeAt(0) === 0xfeff) v = v.slice(1);
    const direct = scalar(v, kinds);
    if (direct !== undefined) return direct;
    // A single value where a list is taken: a one-element list of it (coerced to the items).
    if (kinds.has('array') && !hasKindOf(kinds, v)) return [walk(itemSchema(s), v, `${path}/0`)];
    return v;
  };
  walk(schema, data, '');
  return errors.length ? errors : undefined;
}

/** Whether a schema (one of its branches) takes the text `undefined` as a value. */
function takesUndefinedText(s: unknown): boolean {
  return branches(s).some((b) => {
    if (!isRecord(b)) return false;
    if ('const' in b) return b.const === 'undefined';
    if (Array.isArray(b.enum)) return b.enum.includes('undefined');
    if (b.type !== 'string') return false;
    return typeof b.pattern !== 'string' || new RegExp(b.pattern, 'u').test('undefined');
  });
}

/**
 * A query string's parameters sent as the text `undefined` that their schema cannot take are
 * removed, in place, as if absent (the HTTP layer calls it on the querystring part, before `coerce`).
 */
export function dropUndefinedText(schema: unknown, data: unknown): void {
  if (!isRecord(data)) return;
  for (const [key, v] of Object.entries(data))
    if (v === 'undefined' && !takesUndefinedText(propertySchema(schema, key))) delete data[key];
}
