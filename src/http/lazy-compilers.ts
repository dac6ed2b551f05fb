// Fastify compiles a validator for every request part and a serializer for every answer status
// of every route when the application starts: with the ten error answers of each operation,
// some seven hundred fast-json-stringify and ajv compilations, about a second of the start.
// These factories wrap Fastify's own compilers (the same ajv and fast-json-stringify, same
// options) so that each route compiles on its first use, and identical schemas (the error
// answer of every route) share one compiled function.
import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler';
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { coerce, dropUndefinedText } from './coerce.ts';
import { serializerSchema } from './serializer-schemas.ts';
import { field } from '../shared/json-values.ts';

/** What Fastify calls a validator with and reads of it (node_modules/fastify/lib/validation.js, validateParam). */
type Validate = ((data: unknown, ctx?: Parameters<ValidateFunction>[1]) => boolean) & {
  errors?: ErrorObject[] | null;
  schemaEnv?: unknown;
};

function lazy<F extends (...a: never[]) => unknown>(compile: () => F): () => F {
  let fn: F | undefined;
  return () => (fn ??= compile());
}

/** Key of a schema's compiled function: the same schema text compiles to the same function. */
const keyOf = (schema: unknown) => JSON.stringify(schema);

/**
 * A validator of ours as the type Fastify's `buildValidator` option names: @fastify/ajv-compiler
 * types what a compiler gives as Ajv's ValidateFunction (with the schema and its compiled
 * environment), while Fastify calls it, reads its `errors`, and reads `schemaEnv` as a flag only.
 */
function asAjvValidator(validate: Validate): ValidateFunction {
  // eslint-disable-next-line @typescript-eslint/consistent-type-assertions -- Fastify reads no more of it than Validate has (see above)
  return validate as ValidateFunction;
}

export function lazyValidatorFactory(): ValidatorFactory {
  const build = AjvCompiler();
  const factory: typeof build = (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const shared = new Map<string, () => ValidateFunction>();
    // Fastify calls a compiler with the route definition ({ schema, method, url, httpPart }), which
    // the package types as a schema (an open object): its fields are read as such.
    return (route) => {
      const schema = field(route, 'schema');
      const key = `${String(field(route, 'httpPart'))}\u0000${keyOf(schema)}`;
      let get = shared.get(key);
      if (!get) shared.set(key, (get = lazy((): ValidateFunction => compile(route))));
      const getFn = get;
      // Ajv validators take the parent data to coerce a root value: Fastify passes it when
      // `schemaEnv` is set, and reads `errors` after a failed call.
      const query = field(route, 'httpPart') === 'querystring';
      const validate: Validate = (data, ctx) => {
        if (query) dropUndefinedText(schema, data);
        const refused = coerce(schema, data);
        if (refused) {
          validate.errors = refused;
          return false;
        }
        const fn = getFn();
        const ok = fn(data, ctx);
        validate.errors = fn.errors;
        return ok;
      };
      validate.schemaEnv = true;
      return asAjvValidator(validate);
    };
  };
  return factory;
}

export function lazySerializerFactory(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const shared = new Map<string, (data: unknown) => string>();
    return (route) => {
      const key = keyOf(route.schema);
      let serialize = shared.get(key);
      if (!serialize) {
        // fast-json-stringify is given the nullable fields as such (src/http/serializer-schemas.ts).
        const get = lazy(() => compile({ ...route, schema: serializerSchema(route.schema) }));
        serialize = (data: unknown) => get()(data);
        shared.set(key, serialize);
      }
      return serialize;
    };
  };
}
