// One declaration per operation. From it the route is registered, its input validated, its
// caller authenticated, its target resolved and authorised, its result wrapped in the envelope
// of document 1 and projected to the requested format, and its OpenAPI entry written (with the
// roles of the policy table). Nothing about an operation is written twice.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import type { SQL } from 'drizzle-orm';
import { POLICY } from '../authz/policy.ts';
import { resolveCallerAndTarget, type TargetFallback } from '../authz/resolve.ts';
import type { Caller } from '../authz/roles.ts';
import type { TargetKindName } from '../authz/targets.ts';
import { ErrorSchema, dataEnvelope, listEnvelope, statusEnvelope } from './schemas.ts';
import { formatLevel, project, type FormatLevels } from './format.ts';
import type { AppDeps, OperationContext } from './context.ts';
import { describePolicy } from '../authz/describe.ts';
import { authenticateRequest, requestToken } from '../modules/authentication/bearer.ts';
import { idempotencyBegin } from './idempotency.ts';
import { fail } from '../errors/catalogue.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Envelope = 'data' | 'list' | 'status' | 'plain' | 'raw';

/** Where the target's id comes from; `fallback` names the caller's field used when the request has none. */
export interface TargetRef {
  kind: TargetKindName;
  from: 'params' | 'query' | 'body';
  field: string;
  fallback?: TargetFallback;
  /**
   * Data of the answer read in the same statement as the session, caller, target and
   * authorisation: SQL expressions over the target row (alias `t`), binding no values, handed to
   * the handler as `ctx.extras[name]`. A single-resource GET then answers in one round trip.
   */
  extras?: Record<string, SQL>;
}

export interface ListResult<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

type S<T> = T extends TSchema ? Static<T> : undefined;

export interface Input<P, Q, B> {
  params: S<P>;
  query: S<Q>;
  body: S<B>;
}

export interface OperationDef<P = undefined, Q = undefined, B = undefined, R extends TSchema = TSchema> {
  operationId: string;
  method: Method;
  /** Relative to /api/svc unless it starts with /api/ (avatar, banner). */
  path: string;
  aliases?: string[];
  tag: string;
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Content types accepted besides JSON (form posts of OAuth). */
  consumes?: string[];
  /** Schema of one item: of `data`, of each list element, or of the whole body for `plain`. */
  response: R;
  envelope: Envelope;
  successStatus?: 200 | 201 | 302;
  formats?: FormatLevels;
  target?: TargetRef;
  /** false: a POST that must not honour Idempotency-Key (its answer must never be stored). */
  idempotent?: boolean;
  handler: (ctx: OperationContext, input: Input<P, Q, B>) => Promise<unknown>;
}

export type AnyOperation = OperationDef<any, any, any, any>;

export function defineOperation<P extends TSchema | undefined = undefined, Q extends TSchema | undefined = undefined, B extends TSchema | undefined = undefined, R extends TSchema = TSchema>(
  def: OperationDef<P, Q, B, R>,
): OperationDef<P, Q, B, R> {
  return def;
}

export const API_PREFIX = '/api/svc';

export function fullPath(path: string): string {
  return path.startsWith('/api/') ? path : `${API_PREFIX}${path}`;
}

function responseSchema(op: AnyOperation): TSchema {
  // With format levels, smaller levels leave fields out: every field is then optional.
  // (Type.Partial drops additionalProperties: the object is closed again, so the document
  // still says that nothing else is ever returned.)
  const item = op.formats ? ({ ...Type.Partial(op.response), additionalProperties: false } as TSchema) : op.response;
  switch (op.envelope) {
    case 'data':
      return dataEnvelope(item);
    case 'list':
      return listEnvelope(item);
    case 'status':
      return statusEnvelope(item);
    default:
      return item;
  }
}

const ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 415, 422, 429, 500] as const;

function shape(op: AnyOperation, result: unknown, level: ReturnType<typeof formatLevel>): unknown {
  const fmt = (o: unknown) => (op.formats && o && typeof o === 'object' ? project(o as Record<string, unknown>, op.formats, level) : o);
  switch (op.envelope) {
    case 'data':
      return { data: fmt(result) };
    case 'list': {
      const r = result as ListResult<unknown>;
      return { data: r.items.map(fmt), total: r.total, limit: r.limit, offset: r.offset };
    }
    case 'status': {
      const r = result as { status: string; data: unknown };
      return { status: r.status, data: Array.isArray(r.data) ? r.data : fmt(r.data) };
    }
    default:
      return result;
  }
}

function targetId(ref: TargetRef, req: FastifyRequest): string | undefined {
  const src = (ref.from === 'params' ? req.params : ref.from === 'query' ? req.query : req.body) as Record<string, unknown> | undefined;
  const v = src?.[ref.field];
  if (typeof v === 'string' && v !== '') return v;
  if (!ref.fallback) fail('VALIDATION_FAILED', { missing: ref.field });
  return undefined;
}

/** The caller and, for operations with a target, the authorised target: one database round trip. */
async function authorise(deps: AppDeps, op: AnyOperation, req: FastifyRequest): Promise<{ caller: Caller; target: Record<string, unknown>; extras: Record<string, unknown> }> {
  if (!op.target) return { caller: await authenticateRequest(deps, req), target: {}, extras: {} };
  const token = requestToken(deps, req);
  return resolveCallerAndTarget(deps, op.operationId, token, op.target.kind, targetId(op.target, req), op.target.fallback, req.body, op.target.extras);
}

export function registerOperation(app: FastifyInstance, deps: AppDeps, op: AnyOperation): void {
  const entry = POLICY[op.operationId];
  if (!entry) throw new Error(`operation ${op.operationId} has no policy entry`);
  const isPublic = entry.kind === 'public';
  const status = op.successStatus ?? (op.method === 'POST' ? 201 : 200);

  const response: Record<number, TSchema> = {};
  if (status !== 302) response[status] = responseSchema(op);
  for (const s of ERROR_STATUSES) response[s] = Type.Ref('Error');

  const paths = [op.path, ...(op.aliases ?? [])];
  paths.forEach((path, i) => {
    app.route({
      method: op.method,
      url: fullPath(path),
      schema: {
        operationId: i === 0 ? op.operationId : `${op.operationId}_alias${i}`,
        tags: [op.tag],
        summary: op.summary,
        description: [op.description, describePolicy(op.operationId)].filter(Boolean).join('\n\n'),
        ...(op.params ? { params: op.params } : {}),
        ...(op.query ? { querystring: op.query } : {}),
        ...(op.body ? { body: op.body } : {}),
        ...(op.consumes ? { consumes: op.consumes } : {}),
        response,
        ...(isPublic ? { security: [] } : {}),
      },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const { caller, target, extras } = isPublic ? { caller: undefined as unknown as Caller, target: {}, extras: {} } : await authorise(deps, op, req);
        // Only authorised requests claim an Idempotency-Key.
        if (op.method === 'POST' && op.idempotent !== false && !(await idempotencyBegin(deps, req, reply, caller))) return reply;
        const ctx: OperationContext = { caller, db: deps.database.db, deps, log: req.log, now: deps.now(), target, extras, req, reply };
        const result = await op.handler(ctx, { params: req.params, query: req.query, body: req.body } as never);
        if (op.envelope === 'raw') return reply;
        const level = formatLevel((req.query as { format?: unknown } | undefined)?.format, op.formats?.default ?? 'small');
        return reply.code(status).send(shape(op, result, level));
      },
    });
  });
}

export function registerAll(app: FastifyInstance, deps: AppDeps, ops: readonly AnyOperation[]): void {
  app.addSchema(ErrorSchema);
  for (const op of ops) registerOperation(app, deps, op);
}
