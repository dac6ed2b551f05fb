// Checks every response a test receives against the OpenAPI document the service publishes:
// the operation is found by method and path template, the status code must be documented for
// it, and a JSON body must validate against the documented schema (required fields, types,
// closed objects). Responses that are not JSON (redirects, the HTML of /api/svc/docs, files)
// and paths the document does not describe (the 404 of an unknown route, /health) are skipped.
import type { LightMyRequestResponse } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type Json = Record<string, unknown>;

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

interface PathTemplate {
  template: string;
  regex: RegExp;
  /** One entry per segment: true for a literal segment, false for a parameter. */
  literal: boolean[];
}

interface SpecCache {
  templates: PathTemplate[];
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}

const caches = new WeakMap<object, SpecCache>();

export class OpenApiValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OpenApiValidationError';
  }
}

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileTemplate(template: string): PathTemplate {
  const segments = template.split('/');
  const literal: boolean[] = [];
  const parts = segments.map((seg) => {
    // A whole segment `{*}` is the wildcard of a Fastify `*` route: it takes the rest of the path.
    if (seg === '{*}') {
      literal.push(false);
      return '.*';
    }
    const isLiteral = !/\{[^}]+\}/.test(seg);
    literal.push(isLiteral);
    return seg
      .split(/(\{[^}]+\})/)
      .map((p) => (/^\{[^}]+\}$/.test(p) ? '[^/]+' : escapeRegex(p)))
      .join('');
  });
  return { template, regex: new RegExp(`^${parts.join('/')}$`), literal };
}

/** Fastify prefers literal segments to parameters, from left to right: so does this. */
function moreSpecific(a: PathTemplate, b: PathTemplate): number {
  const n = Math.max(a.literal.length, b.literal.length);
  for (let i = 0; i < n; i++) {
    const x = a.literal[i] ?? false;
    const y = b.literal[i] ?? false;
    if (x !== y) return x ? -1 : 1;
  }
  return 0;
}

/** Where the document's component schemas live in Ajv: added once, referenced by every validator. */
const COMPONENTS_ID = 'https://svc.invalid/openapi/components';

/**
 * `#/components/schemas/X` becomes a reference into the components schema added once to Ajv
 * (COMPONENTS_ID), so that a response's validator compiles only its own schema and the components
 * it reaches, each once per process: compiling every component into each response's validator
 * cost the authorisation matrix about 7 s; `$id`s are dropped (the components have one place).
 */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if (k === '$id') continue;
    if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/'))
      out[k] = `${COMPONENTS_ID}#/$defs/${v.slice('#/components/schemas/'.length)}`;
    else out[k] = rewriteRefs(v);
  }
  return out;
}

function cacheFor(spec: Json): SpecCache {
  let c = caches.get(spec);
  if (!c) {
    const paths = (spec.paths ?? {}) as Json;
    const templates = Object.keys(paths).map(compileTemplate).sort(moreSpecific);
    // strict: false because OpenAPI adds annotation keywords (example, discriminator, xml) that
    // JSON Schema does not know; they carry no constraint. validateSchema: false because the
    // document is checked as a whole by Redocly (`npm run lint:openapi`, in CI); checking its
    // schemas again against JSON Schema's meta-schema cost each test process 0.2 to 0.3 s.
    const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true, validateSchema: false });
    addFormats(ajv);
    const components = ((spec.components as Json | undefined)?.schemas ?? {}) as Json;
    ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteRefs(components) as Json });
    c = { templates, ajv, validators: new Map() };
    caches.set(spec, c);
  }
  return c;
}

/** The path template of the spec that the request path falls under, or undefined. */
export function findPathTemplate(spec: Json, path: string): string | undefined {
  return cacheFor(spec).templates.find((t) => t.regex.test(path))?.template;
}

function pickResponse(responses: Json, status: number): { key: string; response: Json } | undefined {
  const exact = String(status);
  if (responses[exact]) return { key: exact, response: responses[exact] as Json };
  const range = `${String(status)[0]}XX`;
  for (const key of [range, range.toLowerCase()]) if (responses[key]) return { key, response: responses[key] as Json };
  if (responses.default) return { key: 'default', response: responses.default as Json };
  return undefined;
}

function resolveRef(spec: Json, node: Json): Json {
  let cur = node;
  for (let depth = 0; typeof cur.$ref === 'string' && depth < 10; depth++) {
    const ref = cur.$ref;
    if (!ref.startsWith('#/')) throw new OpenApiValidationError(`unsupported $ref ${ref}`);
    let target: unknown = spec;
    for (const raw of ref.slice(2).split('/')) {
      const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      target = (target as Json | undefined)?.[key];
    }
    if (!target || typeof target !== 'object') throw new OpenApiValidationError(`unresolved $ref ${ref}`);
    cur = target as Json;
  }
  return cur;
}

function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mime = contentType.split(';')[0].trim().toLowerCase();
  return mime === 'application/json' || mime.endsWith('+json');
}

function jsonContentSchema(content: Json | undefined): unknown {
  if (!content) return undefined;
  for (const [mime, media] of Object.entries(content)) {
    if (isJson(mime)) return (media as Json | undefined)?.schema;
  }
  return undefined;
}

function preview(body: string): string {
  return body.length > 600 ? `${body.slice(0, 600)}...` : body;
}

export function validateResponse(
  spec: Record<string, unknown>,
  method: string,
  url: string,
  res: LightMyRequestResponse,
): void {
  const m = method.toLowerCase();
  if (m === 'head' || m === 'options') return;
  const contentType = res.headers['content-type'];
  if (!isJson(typeof contentType === 'string' ? contentType : undefined)) return;

  const path = url.split('?')[0].split('#')[0];
  const c = cacheFor(spec);
  const template = c.templates.find((t) => t.regex.test(path))?.template;
  if (!template) return;
  const operation = ((spec.paths as Json)[template] as Json | undefined)?.[m] as Json | undefined;
  // The path is documented but not this method: the router answers 404 or 405 itself.
  if (!operation) return;

  const where = `${method.toUpperCase()} ${url} (${String(operation.operationId ?? template)})`;
  const responses = (operation.responses ?? {}) as Json;
  const picked = pickResponse(responses, res.statusCode);
  if (!picked) {
    throw new OpenApiValidationError(
      `${where}: status ${res.statusCode} is not documented (documented: ${Object.keys(responses).join(', ')}); body: ${preview(res.body)}`,
    );
  }

  const cacheKey = `${m} ${template} ${picked.key}`;
  let validate = c.validators.get(cacheKey);
  if (!validate) {
    const response = resolveRef(spec, picked.response);
    const schema = jsonContentSchema(response.content as Json | undefined);
    if (schema === undefined) {
      throw new OpenApiValidationError(
        `${where}: status ${res.statusCode} answers JSON but the document gives it no application/json schema; body: ${preview(res.body)}`,
      );
    }
    validate = c.ajv.compile(rewriteRefs(schema) as Json);
    c.validators.set(cacheKey, validate);
  }

  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    throw new OpenApiValidationError(
      `${where}: status ${res.statusCode} says JSON but the body does not parse: ${preview(res.body)}`,
    );
  }
  if (!validate(body)) {
    const errors = (validate.errors ?? [])
      .map((e) => `  ${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
      .join('\n');
    throw new OpenApiValidationError(
      `${where}: status ${res.statusCode} body does not match the documented schema (responses.${picked.key}):\n${errors}\nbody: ${preview(res.body)}`,
    );
  }
}

/** Errors of `value` against a schema of the document (its $refs resolved there), or undefined. */
export function schemaErrors(spec: Record<string, unknown>, schema: unknown, value: unknown): string | undefined {
  const validate = cacheFor(spec).ajv.compile(rewriteRefs(schema) as Json);
  if (validate(value)) return undefined;
  return (validate.errors ?? [])
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
    .join('; ');
}
