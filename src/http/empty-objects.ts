// Route table, conventions: "In a PUT, an absent field or an empty nested object means 'no
// change'". A platform rule, so every PUT follows it without its service knowing: from each PUT's
// body schema the object-valued fields are derived once, when the route is added, and a
// preHandler (after validation, before authorisation and the handler) drops those whose value is
// `{}`. `null` is left alone: it still clears a field whose schema allows it.
import { isRecord } from '../shared/records.ts';
import type { FastifyInstance, preHandlerHookHandler, RouteOptions } from 'fastify';

type JsonSchema = Record<string, unknown>;

/** The object-valued fields of a body schema, each with the object-valued fields of its own. */
export type EmptyObjectPlan = ReadonlyMap<string, EmptyObjectPlan>;

const isPlainObject = isRecord;

/** The object branch of a property schema: `{type: object}`, or one branch of a union (nullable objects). */
function objectSchema(s: unknown): JsonSchema | undefined {
  if (!isPlainObject(s)) return undefined;
  const type = s.type;
  if (type === 'object' || (Array.isArray(type) && type.includes('object'))) return s;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = s[key];
    if (!Array.isArray(branches)) continue;
    for (const b of branches) {
      const o = objectSchema(b);
      if (o) return o;
    }
  }
  return undefined;
}

/** The plan of a body schema: its declared properties whose schema is an object. */
export function emptyObjectPlan(bodySchema: unknown): EmptyObjectPlan {
  const plan = new Map<string, EmptyObjectPlan>();
  const body = objectSchema(bodySchema);
  const props = body?.properties;
  if (!isPlainObject(props)) return plan;
  for (const [name, prop] of Object.entries(props)) {
    const o = objectSchema(prop);
    if (o) plan.set(name, emptyObjectPlan(o));
  }
  return plan;
}

/**
 * Removes, in place, the fields of the plan whose value is an empty object; a nested object left
 * empty by that removal changed nothing either and goes too. Free-form objects (customData) are
 * not looked into: their content is data.
 */
export function dropEmptyObjects(value: Record<string, unknown>, plan: EmptyObjectPlan): void {
  for (const [name, inner] of plan) {
    const v = value[name];
    if (!isPlainObject(v)) continue;
    if (inner.size) dropEmptyObjects(v, inner);
    if (Object.keys(v).length === 0) delete value[name];
  }
}

const isPut = (route: RouteOptions) =>
  Array.isArray(route.method) ? route.method.includes('PUT') : route.method === 'PUT';

/** Installs the rule on every PUT route added after this call (call it before registering routes). */
export function installEmptyObjectRule(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!isPut(route)) return;
    const plan = emptyObjectPlan(route.schema?.body);
    if (plan.size === 0) return;
    const drop: preHandlerHookHandler = (req, _reply, done) => {
      if (isPlainObject(req.body)) dropEmptyObjects(req.body, plan);
      done();
    };
    const existing = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
    route.preHandler = [drop, ...existing];
  });
}
