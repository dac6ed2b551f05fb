// The input of an operation, checked the same way whoever sends it: Fastify's validators for an
// HTTP request, and these for a job that runs the operation's command for a caller (an import's
// line, document 3, Import). Same compiler (@fastify/ajv-compiler), same options, the same lossless
// coercion of numbers and booleans sent as strings (src/http/coerce.ts) and, on a PUT, the route
// table's rule that an empty nested object changes nothing (src/http/empty-objects.ts).
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { ValidateFunction } from 'ajv';
import type { TSchema } from 'typebox';
import { coerce, dropUndefinedText } from './coerce.ts';
import { dropEmptyObjects, emptyObjectPlan } from './empty-objects.ts';
import { isRecord } from '../shared/records.ts';

/**
 * Ajv's options, for the application (src/app.ts) and for the validators below. `validateSchema`
 * off: Ajv would check each schema against JSON Schema's meta-schema, which it compiles first
 * (some 70 ms of the service's thread, at the start where Fastify adds the shared schemas); the
 * schemas are the operations' own, and test/http/schemas-valid.test.ts checks every one of them
 * against that meta-schema instead (docs/decisions.md, Performance, "Schemas checked by a test").
 */
export const AJV_OPTIONS = {
  customOptions: {
    removeAdditional: true,
    coerceTypes: false,
    useDefaults: true,
    allErrors: false,
    validateSchema: false,
  },
} as const;

type Part = 'params' | 'querystring' | 'body';

const build = AjvCompiler();
let compileRoute: ReturnType<typeof build> | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: TSchema, part: Part): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    compileRoute ??= build({}, AJV_OPTIONS);
    // The compiler takes a route definition, as Fastify calls it (the package types its argument
    // as a schema, an open object that a route definition also is).
    fn = compileRoute({ schema, method: 'POST', url: '/', httpPart: part });
    compiled.set(schema, fn);
  }
  return fn;
}

/** A refused input, in the shape Fastify gives its validation errors (src/errors/handler.ts answers both alike). */
export class InputRefused extends Error {
  readonly validation: { instancePath: string; message?: string; params?: unknown }[];
  readonly validationContext: string;
  constructor(context: string, errors: { instancePath?: string; message?: string; params?: unknown }[]) {
    super(`${context} is not valid`);
    this.validationContext = context;
    this.validation = errors.map((e) => ({ instancePath: e.instancePath ?? '', message: e.message, params: e.params }));
  }
}

/**
 * Checks one part of an input against its schema, in place (coercion, defaults and the removal of
 * unknown fields change the value as they do for a request), and returns it; throws InputRefused.
 */
export function checkPart(schema: TSchema | undefined, part: Part, value: unknown): unknown {
  if (!schema) return value;
  const data = value ?? {};
  if (part === 'querystring') dropUndefinedText(schema, data);
  const refused = isRecord(schema) ? coerce(schema, data) : undefined;
  if (refused) throw new InputRefused(part, refused);
  const validate = validatorOf(schema, part);
  if (!validate(data)) throw new InputRefused(part, validate.errors ?? []);
  return data;
}

/** A PUT's body after the empty-object rule (the application applies it with a hook on each route). */
export function withoutEmptyObjects(schema: TSchema | undefined, body: unknown): unknown {
  if (schema && isRecord(body)) dropEmptyObjects(body, emptyObjectPlan(schema));
  return body;
}
