// Fastify compiles a validator for every request part and a serializer for every answer status
// of every route when the application starts: with the ten error answers of each operation,
// some seven hundred fast-json-stringify and ajv compilations, about a second of the start.
// These factories wrap Fastify's own compilers (the same ajv and fast-json-stringify, same
// options) so that each route compiles on its first use, and identical schemas (the error
// answer of every route) share one compiled function.
import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler';
import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import { coerce } from './coerce.ts';

type Validate = ((data: unknown, ctx?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };
interface RouteSchema {
  schema: unknown;
  method: string;
  url: string;
  httpPart?: string;
  httpStatus?: string;
}

function lazy<F extends (...a: never[]) => unknown>(compile: () => F): () => F {
  let fn: F | undefined;
  return () => (fn ??= compile());
}

/** Key of a schema's compiled function: the same schema text compiles to the same function. */
const keyOf = (schema: unknown) => JSON.stringify(schema);

// (The packages' published types describe the route definition loosely: the factories are
// typed here by what Fastify passes them and cast to the types its options name.)
export function lazyValidatorFactory(): ValidatorFactory {
  const build = AjvCompiler();
  const factory = (externalSchemas: unknown, options: unknown) => {
    const compile = (build as (e: unknown, o: unknown) => (route: RouteSchema) => Validate)(externalSchemas, options);
    const shared = new Map<string, () => Validate>();
    return (route: RouteSchema): Validate => {
      const key = `${route.httpPart}\u0000${keyOf(route.schema)}`;
      let get = shared.get(key);
      if (!get) shared.set(key, (get = lazy(() => compile(route))));
      const getFn = get;
      // Ajv validators take the parent data to coerce a root value: Fastify passes it when
      // `schemaEnv` is set, and reads `errors` after a failed call.
      const schema = route.schema as Record<string, unknown>;
      const validate: Validate = (data, ctx) => {
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
      return validate;
    };
  };
  return factory as unknown as ValidatorFactory;
}

export function lazySerializerFactory(): SerializerFactory {
  const build = SerializerSelector();
  const factory = (externalSchemas: unknown, options: unknown) => {
    const compile = (build as (e: unknown, o: unknown) => (route: RouteSchema) => (data: unknown) => string)(
      externalSchemas,
      options,
    );
    const shared = new Map<string, (data: unknown) => string>();
    return (route: RouteSchema) => {
      const key = keyOf(route.schema);
      let serialize = shared.get(key);
      if (!serialize) {
        const get = lazy(() => compile(route));
        serialize = (data: unknown) => get()(data);
        shared.set(key, serialize);
      }
      return serialize;
    };
  };
  return factory as unknown as SerializerFactory;
}
