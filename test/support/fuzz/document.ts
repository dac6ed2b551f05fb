// The operations of the OpenAPI document the service publishes, as the fuzz test (test/http/fuzz.test.ts)
// needs them: method, path template and parameters, query parameters, request media and body
// schema. Read from the document, so an operation added later is fuzzed without new code.

export type Schema = Record<string, unknown>;
type Json = Record<string, unknown>;

export interface Param {
  name: string;
  required: boolean;
  schema: Schema;
}

export interface DocOperation {
  operationId: string;
  method: string;
  /** The path template of the document: `/api/svc/admin/v1.0/users/{userId}`. */
  path: string;
  pathParams: string[];
  query: Param[];
  /** Request media types and, for JSON and form bodies, their schema. */
  body: { types: string[]; json?: Schema; form?: Schema } | undefined;
  /** No caller needed (`security: []`). */
  isPublic: boolean;
  /** Binary answers (images, audio): Range and If-Modified-Since are worth fuzzing. */
  binary: boolean;
}

/** Follows `#/components/...` references of the document (schemas only; nothing else refers). */
export function resolver(spec: Json): (s: unknown) => Schema {
  const resolve = (s: unknown): Schema => {
    let cur = (s ?? {}) as Schema;
    for (let i = 0; typeof cur.$ref === 'string' && i < 10; i++) {
      let target: unknown = spec;
      for (const key of cur.$ref.slice(2).split('/')) target = (target as Json | undefined)?.[key];
      cur = (target ?? {}) as Schema;
    }
    return cur;
  };
  return resolve;
}

export function documentOperations(spec: Json): DocOperation[] {
  const resolve = resolver(spec);
  const out: DocOperation[] = [];
  for (const [path, item] of Object.entries((spec.paths ?? {}) as Record<string, Json>)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      const op = raw as Json;
      const params = ((op.parameters ?? []) as Json[]).map(resolve);
      const content = (resolve(op.requestBody).content ?? undefined) as
        Record<string, { schema?: unknown }> | undefined;
      const ok = Object.entries((op.responses ?? {}) as Record<string, Json>).find(([s]) => s.startsWith('2'))?.[1];
      const okTypes = Object.keys(resolve(ok).content ?? {});
      out.push({
        operationId: String(op.operationId),
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => String(p.name)),
        query: params
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: String(p.name), required: p.required === true, schema: resolve(p.schema) })),
        body: content
          ? {
              types: Object.keys(content),
              json: content['application/json'] ? resolve(content['application/json'].schema) : undefined,
              form: content['application/x-www-form-urlencoded']
                ? resolve(content['application/x-www-form-urlencoded'].schema)
                : undefined,
            }
          : undefined,
        isPublic: Array.isArray(op.security) && op.security.length === 0,
        binary: okTypes.length > 0 && !okTypes.some((t) => t.includes('json')),
      });
    }
  }
  return out;
}

/**
 * A value the schema accepts, as simple as can be: the required fields only, the first choice of
 * an enumeration, the least length. The fuzz changes one part of it, so the rest stays valid and
 * the request gets as far as the part that is wrong.
 */
export function validSample(
  schema: Schema,
  resolve: (s: unknown) => Schema,
  n: number,
  known: (name: string) => string | undefined = () => undefined,
  depth = 0,
): unknown {
  const s = resolve(schema);
  const again = (x: Schema) => validSample(x, resolve, n, known, depth + 1);
  if (depth > 6) return null;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const k of ['anyOf', 'oneOf'] as const) {
    const branches = s[k] as Schema[] | undefined;
    if (branches) return again(branches.map(resolve).find((b) => b.type !== 'null') ?? branches[0]);
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).find((x) => x !== 'null') : (s.type as string | undefined);
  switch (type) {
    case 'string': {
      if (s.format === 'email') return `fuzz${n}@example.com`;
      if (s.format === 'date-time') return '2026-12-01T10:00:00.000Z';
      if (s.format === 'date') return '2026-12-01';
      if (s.format === 'uri') return 'https://example.com/fuzz';
      const min = typeof s.minLength === 'number' ? s.minLength : 1;
      return `fuzz${n}`
        .padEnd(min, 'x')
        .slice(0, typeof s.maxLength === 'number' ? Math.max(s.maxLength, min) : undefined);
    }
    case 'integer':
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 1;
    case 'boolean':
      return true;
    case 'array':
      return typeof s.minItems === 'number' && s.minItems > 0 ? [again(s.items as Schema)] : [];
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = (s.properties ?? {}) as Record<string, Schema>;
      // A field named like a path parameter (companyId, siteId...) gets the id of an existing resource.
      for (const k of (s.required ?? []) as string[]) out[k] = known(k) ?? (props[k] ? again(props[k]) : 'x');
      return out;
    }
    default:
      return null;
  }
}

/**
 * The fields of a body schema a mutation can aim at: each property, and the properties of
 * declared nested objects, as paths (`['selectedTheme', 'dark']`).
 */
export function fieldPaths(
  schema: Schema | undefined,
  resolve: (s: unknown) => Schema,
  prefix: string[] = [],
): string[][] {
  if (!schema || prefix.length > 2) return [];
  const s = resolve(schema);
  const objects = [s, ...((s.anyOf ?? s.oneOf ?? []) as Schema[]).map(resolve)].filter(
    (b) => b.type === 'object' || b.properties,
  );
  const out: string[][] = [];
  for (const o of objects) {
    for (const [k, v] of Object.entries((o.properties ?? {}) as Record<string, Schema>)) {
      out.push([...prefix, k]);
      out.push(...fieldPaths(v, resolve, [...prefix, k]));
    }
  }
  return out;
}
