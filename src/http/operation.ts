// One declaration per operation. From it the route is registered, its input validated, its
// caller authenticated, its target (with its parent and any second resource) resolved and
// authorised in one statement, or its list scope built from the policy; its result wrapped in
// the envelope of document 1 and projected to the requested format; its OpenAPI entry written
// (with the roles of the policy table). Nothing about an operation is written twice.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import type { SQL } from 'drizzle-orm';
import { POLICY } from '../authz/policy.ts';
import type { TargetFallback } from '../authz/resolve.ts';
import type { ListFamily } from '../db/list-count.ts';
import { isTargetKind, linkColumn, type TargetKindName, type TargetRow } from '../authz/targets.ts';
import { ErrorSchema, dataEnvelope, listEnvelope, statusEnvelope } from './schemas.ts';
import { formatLevel, project, type FormatLevel, type FormatLevels, type SmallItem } from './format.ts';
import {
  commandContext,
  type AnyCommandContext,
  type AppDeps,
  type CommandContext,
  type HttpContext,
} from './context.ts';
import { authorise, plansByLevel, type Authorised } from './authorise.ts';
import { describePolicy, policyRoleSets } from '../authz/describe.ts';
import { checkReferenceDeclaration, checkReferences, referenceWords, type ReferenceRef } from '../authz/references.ts';
import { requestToken } from '../shared/bearer.ts';
import { idempotencyBegin, idempotencyStore } from './idempotency.ts';
import type { Executor } from '../db/client.ts';
import { mediaRouteOptions, receiveUpload, type RequestMedia, type Upload } from './media.ts';
import { errorCodesByStatus, operationErrorKeys } from './operation-errors.ts';
import type { ErrorKey } from '../errors/catalogue.ts';
import { isRecord } from '../shared/records.ts';
import { binaryDecl, binaryResponses, isBinaryAnswer, sendBinary, type BinaryAnswer } from './binary.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An operation's error statuses, each with the codes it can carry (src/http/openapi.ts documents them). */
    errorCodes?: Map<number, number[]>;
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type Envelope = 'data' | 'list' | 'status' | 'plain' | 'raw' | 'binary';
type From = 'params' | 'query' | 'body';

/** The path parameters naming the parents of a target, by kind, nearest first: `{ subscriber: 'subscriberId', cloudpbx: 'systemId' }`. */
export type ParentFields = { readonly [K in TargetKindName]?: string };

/** The rows of the parents a declaration names, by kind (`ctx.parents.system` is a system's row). */
export type ParentRows<PF> = { [K in keyof PF & TargetKindName]: TargetRow<K> };

/** Extras of a declaration: SQL expressions, each typed by the value it reads (`sql<number>`). */
export type ExtraSql = Readonly<Record<string, SQL<unknown>>>;

/** The values of a declaration's extras, typed by their SQL. */
export type ExtraValues<X> = { [N in keyof X]: X[N] extends SQL<infer T> ? T : unknown };

/** Where the target's id comes from; `fallback` names the caller's field used when the request has none. */
export interface TargetRef<
  K extends TargetKindName = TargetKindName,
  PF extends ParentFields = ParentFields,
  X extends ExtraSql = ExtraSql,
> {
  kind: K;
  from: From;
  field: string;
  fallback?: TargetFallback;
  /**
   * The parents named by the path, nearest first, each with its path parameter
   * (cloudpbxs/{systemId}/subscribers/{subscriberId}/devices/{deviceId}: the device's subscriber,
   * then that subscriber's PBX). The target must belong to each, level by level, or the answer is
   * 404 naming the first level that does not hold. Loaded and authorised in the same statement; a
   * caller who can read one of them but may not act on the target gets 403.
   */
  parents?: PF;
  /**
   * Data of the answer read in the same statement as the session, caller, target and
   * authorisation: SQL expressions over the target row (alias `t`), binding no values, handed to
   * the handler as `ctx.extras[name]`, typed by their SQL (`sql<number>`...). A single-resource GET
   * then answers in one round trip.
   */
  extras?: X;
  /**
   * The format levels whose answer shows the extras (default: every level). At another level the
   * statement reads none of them (a statement of its own, `ctx.extras` empty): a caller asking
   * getCompany's default `small` answer does not pay for its subscriptions and user count.
   */
  extrasAt?: readonly FormatLevel[];
  /**
   * The columns of the target row (the table's property names) that the answer at a format level
   * reads, for the levels that show only a few fields: at such a level the statement reads these
   * columns alone instead of the whole row, and the row the command gets holds only them (the
   * others absent). getCompany's default `small` answer shows a company's id and name, not its
   * ninety other columns. Only for a GET whose policy has no conditions (they would read the row);
   * a test compares every such level with the projection of the whole answer
   * (test/http/row-at.test.ts).
   */
  rowAt?: Partial<Record<FormatLevel, readonly string[]>>;
  /**
   * Request values the extras read besides the target row (the offer a quotation prices, named in
   * the body), by name: each is bound as a text parameter (NULL when the request has none) and an
   * extra reads it as `extraInput(name)` (src/authz/resolve.ts).
   */
  inputs?: Record<string, { from: From; field: string }>;
}

/** The parents a target reference's path names, nearest first, each with its path parameter. */
export function pathParents(target: Pick<TargetRef, 'parents'> | undefined): { kind: TargetKindName; field: string }[] {
  const parents = target?.parents ?? {};
  return Object.keys(parents)
    .filter(isTargetKind)
    .flatMap((kind) => {
      const field = parents[kind];
      return field === undefined ? [] : [{ kind, field }];
    });
}

/**
 * A second resource the operation acts on (the company a site moves to, the subscription a
 * licence comes from). The policy entry's `second[name]` gives the grants the caller needs on it.
 */
export interface SecondRef {
  kind: TargetKindName;
  from: From;
  field: string;
  /** Whether this request acts on it, once the target is loaded (default: whenever it names it). */
  when?: (target: Record<string, unknown>, input: { body: unknown }) => boolean;
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
  /** The raw or multipart body of an operation that declares `media` (src/http/media.ts). */
  upload?: Upload;
}

/** What a handler returns for each envelope: checked at compile time against the response schema. */
export type HandlerResult<R extends TSchema, E extends Envelope> = E extends 'data' | 'plain'
  ? Static<R>
  : E extends 'list'
    ? // Full items, or, for a list that reads only its small level's fields, items marked so (src/http/format.ts).
      ListResult<Static<R>> | ListResult<SmallItem<Static<R>>>
    : E extends 'status'
      ? { status: string; data: Static<R> }
      : E extends 'binary'
        ? BinaryAnswer
        : unknown;

type RowOf<K> = K extends TargetKindName ? TargetRow<K> : Record<string, never>;

/** What the command of a declaration receives: its target's row, its parents' rows, its extras. */
export type CommandOf<K, PF, X> = CommandContext<RowOf<K>, ParentRows<PF>, ExtraValues<X>>;

export interface OperationDef<
  P,
  Q,
  B,
  R extends TSchema,
  E extends Envelope,
  K extends TargetKindName | undefined,
  W = undefined,
  PF extends ParentFields = Record<never, string>,
  X extends ExtraSql = Record<never, SQL>,
> {
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
  /** Request media besides the JSON body, each with its size limit (src/http/media.ts). */
  media?: RequestMedia;
  /** Schema of one item: of `data`, of each list element, or of the whole body for `plain`; Binary(...) for `binary`. */
  response: R;
  envelope: E;
  successStatus?: 200 | 201 | 202 | 302;
  formats?: FormatLevels;
  /** The resource acted on, for operations on one resource. */
  target?: K extends TargetKindName ? TargetRef<K, PF, X> : undefined;
  /** Other resources acted on, by name; their grants are in the policy entry's `second`. */
  second?: Record<string, SecondRef>;
  /**
   * Body fields holding the id of another resource that the operation stores (a company's
   * contact, a user's site): each must name a resource of the kind that the caller may read and
   * that meets the rule, else 400 and the handler does not run (src/authz/references.ts).
   */
  references?: Record<string, ReferenceRef<RowOf<K>>>;
  /**
   * For lists: the kind of rows the caller's grants reach. The framework builds `ctx.scope`,
   * the WHERE clause of those grants, and refuses a caller who holds none with 403. 'caller'
   * for an operation on no resource (a creation without a parent, the operators' listings):
   * the caller needs a grant, and every grant of its policy must be `any`.
   */
  scope?: TargetKindName | 'caller';
  /**
   * For lists answered through src/db/list-count.ts: the family of lists (`list_versions`) whose
   * version the authorising statement reads as well, as `ctx.listVersion`. A page remembered at
   * that version is then answered without a second statement: one round trip.
   */
  listVersion?: ListFamily;
  /**
   * The errors of the catalogue its rules give (a conflict, a refused change...). Those the
   * declaration implies (credentials, target, body, Idempotency-Key) are added by the framework.
   */
  errors?: readonly ErrorKey[];
  /** false: a POST that must not honour Idempotency-Key (its answer must never be stored). */
  idempotent?: boolean;
  /**
   * The credentials a public operation reads itself, for the OpenAPI document (so that it can be
   * tried from the docs page): the security requirements of `components.securitySchemes`.
   */
  security?: Array<Record<string, string[]>>;
  /**
   * Slow work on the input that needs no database (decoding an uploaded image): it runs once the
   * caller is authorised, before the transaction of the change opens, so that no transaction (on
   * the embedded database, its one session) waits for it. It must not change what anyone reads: at
   * most it stages rows that nothing reads until the handler names them (the chunks of an uploaded
   * image); what it returns is `input.prepared` of the handler.
   */
  // (prepare, command and handler are methods: their parameters are bivariant, so that every
  // declaration is an AnyOperation, which the registry runs whatever its types.)
  prepare?(cmd: CommandOf<K, PF, X>, input: Input<P, Q, B>): Promise<W>;
  /**
   * The business operation: run after the caller is authorised, over HTTP or by a job acting for a
   * caller it names (src/http/run-command.ts), with the same authorisation and validation. It sees
   * no HTTP request: only its input, the caller, the resolved resources and narrow dependencies.
   */
  command?(cmd: CommandOf<K, PF, X>, input: Input<P, Q, B> & { prepared: W }): Promise<HandlerResult<R, E>>;
  /**
   * Instead of a command, for operations that are HTTP only (sign-in, OAuth, answers whose media
   * type follows the request's Accept): it also sees the request and the reply.
   */
  handler?(
    ctx: CommandOf<K, PF, X> & HttpContext,
    input: Input<P, Q, B> & { prepared: W },
  ): Promise<HandlerResult<R, E>>;
}

type AnyDef = OperationDef<
  TSchema | undefined,
  TSchema | undefined,
  TSchema | undefined,
  TSchema,
  Envelope,
  TargetKindName | undefined,
  unknown,
  ParentFields,
  ExtraSql
>;
type AnyInput = Input<TSchema | undefined, TSchema | undefined, TSchema | undefined>;

/**
 * Any declaration, as the registry runs it: its methods take the context the registry builds
 * (AnyCommandContext: the resolved rows as records, no caller for a public operation). Every
 * declaration is one, its methods' parameters being bivariant; each was checked against its own
 * types where it was declared (`defineOperation`).
 */
export interface AnyOperation extends Omit<AnyDef, 'prepare' | 'command' | 'handler'> {
  prepare?(cmd: AnyCommandContext, input: AnyInput): Promise<unknown>;
  command?(cmd: AnyCommandContext, input: AnyInput & { prepared: unknown }): Promise<unknown>;
  handler?(ctx: AnyCommandContext & HttpContext, input: AnyInput & { prepared: unknown }): Promise<unknown>;
}

export function defineOperation<
  P extends TSchema | undefined = undefined,
  Q extends TSchema | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema = TSchema,
  E extends Envelope = Envelope,
  K extends TargetKindName | undefined = undefined,
  W = undefined,
  const PF extends ParentFields = Record<never, string>,
  X extends ExtraSql = Record<never, SQL>,
>(def: OperationDef<P, Q, B, R, E, K, W, PF, X>): AnyOperation {
  // Through the declaration of any kind (its type arguments widened), then as the registry runs it.
  const declared: AnyDef = def;
  return declared;
}

export const API_PREFIX = '/api/svc';

export function fullPath(path: string): string {
  return path.startsWith('/api/') ? path : `${API_PREFIX}${path}`;
}

function responseSchema(op: AnyOperation): TSchema {
  // With format levels, smaller levels leave fields out: every field is then optional.
  // (Type.Partial drops additionalProperties: the object is closed again, so the document
  // still says that nothing else is ever returned.)
  // It keeps the resource's name: one component per resource in the OpenAPI document.
  const title: unknown = isRecord(op.response) ? op.response.title : undefined;
  const item: TSchema = op.formats
    ? {
        ...Type.Partial(op.response),
        additionalProperties: false,
        ...(typeof title === 'string' ? { title } : {}),
      }
    : op.response;
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

function shape(op: AnyOperation, result: unknown, level: ReturnType<typeof formatLevel>): unknown {
  const fmt = (o: unknown) => (op.formats && isRecord(o) ? project(o, op.formats, level) : o);
  switch (op.envelope) {
    case 'data':
      return { data: fmt(result) };
    // (The declaration checked the command's result against its envelope: HandlerResult.)
    case 'list': {
      const r = isRecord(result) ? result : {};
      const items: unknown[] = Array.isArray(r.items) ? r.items : [];
      return { data: items.map(fmt), total: r.total, limit: r.limit, offset: r.offset };
    }
    case 'status': {
      const r = isRecord(result) ? result : {};
      return { status: r.status, data: Array.isArray(r.data) ? r.data : fmt(r.data) };
    }
    default:
      return result;
  }
}

/** Declarations that could allow by default, or that name what the policy does not, are refused. */
function checkDeclaration(op: AnyOperation): void {
  const entry = POLICY[op.operationId];
  if (!entry) throw new Error(`operation ${op.operationId} has no policy entry`);
  if (!op.command === !op.handler)
    throw new Error(`operation ${op.operationId} needs a command or a handler, not both`);
  if (op.references) {
    // A public operation has no caller whose reach a reference could be checked against.
    if (entry.kind === 'public') throw new Error(`operation ${op.operationId} is public: it cannot declare references`);
    checkReferenceDeclaration(op.operationId, op.body, op.references);
  }
  if (entry.kind !== 'grants') {
    if (op.target || op.scope || op.second)
      throw new Error(`operation ${op.operationId} declares a target or scope but its policy entry is ${entry.kind}`);
    return;
  }
  if (!op.target && !op.scope)
    throw new Error(
      `operation ${op.operationId} has grants but neither a target nor a scope: nothing is allowed by default`,
    );
  if (op.target && op.scope) throw new Error(`operation ${op.operationId} declares both a target and a scope`);
  if (op.target?.rowAt && (op.method !== 'GET' || entry.grants.some((g) => g.condition)))
    throw new Error(`operation ${op.operationId}: rowAt is for a GET whose grants have no condition`);
  if (op.scope === 'caller' && entry.grants.some((g) => g.relation !== 'any'))
    throw new Error(`operation ${op.operationId} acts on no resource: its grants can only be 'any'`);
  const declared = Object.keys(op.second ?? {})
    .sort()
    .join();
  const granted = Object.keys(entry.second ?? {})
    .sort()
    .join();
  if (declared !== granted)
    throw new Error(
      `operation ${op.operationId}: second resources declared (${declared}) and granted (${granted}) differ`,
    );
  // Each parent the path names is above the level below it: its chain parent or one of its other parents.
  const levels = op.target ? [op.target.kind, ...Object.keys(op.target.parents ?? {}).filter(isTargetKind)] : [];
  for (let i = 1; i < levels.length; i++)
    if (!linkColumn(levels[i - 1], levels[i]))
      throw new Error(`operation ${op.operationId}: a ${levels[i - 1]} has no ${levels[i]} parent`);
}

export function registerOperation(app: FastifyInstance, deps: AppDeps, op: AnyOperation): void {
  checkDeclaration(op);
  const isPublic = POLICY[op.operationId].kind === 'public';
  const plans = plansByLevel(op);
  const status = op.successStatus ?? (op.method === 'POST' ? 201 : 200);

  const response: Record<number, TSchema> = {};
  if (status !== 302) response[status] = responseSchema(op);
  // Only the statuses this operation can give (src/http/operation-errors.ts); the document adds
  // their codes from the route's config (src/http/openapi.ts).
  const errorCodes = errorCodesByStatus(operationErrorKeys(op));
  for (const s of errorCodes.keys()) response[s] = Type.Ref('Error');
  if (op.envelope === 'binary') Object.assign(response, binaryResponses(binaryDecl(op.response)));
  const media = mediaRouteOptions(op.media, op.body, op.consumes, deps.config.bodyLimitBytes);

  const roleSets = policyRoleSets(op.operationId);
  const paths = [op.path, ...(op.aliases ?? [])];
  paths.forEach((path, i) => {
    app.route({
      method: op.method,
      url: fullPath(path),
      schema: {
        operationId: i === 0 ? op.operationId : `${op.operationId}_alias${i}`,
        tags: [op.tag],
        summary: op.summary,
        description: [op.description, describePolicy(op.operationId, op), referenceWords(op.references)]
          .filter(Boolean)
          .join('\n\n'),
        ...(op.params ? { params: op.params } : {}),
        ...(op.query ? { querystring: op.query } : {}),
        ...(media.bodySchema ? { body: media.bodySchema } : op.body ? { body: op.body } : {}),
        ...(op.consumes ? { consumes: op.consumes } : {}),
        response,
        ...(op.security ? { security: op.security } : isPublic ? { security: [] } : {}),
        ...(roleSets ? { 'x-svc-roles': roleSets } : {}),
      },
      config: { ...media.config, errorCodes },
      ...(media.preParsing ? { preParsing: media.preParsing } : {}),
      ...(media.bodyLimit !== undefined ? { bodyLimit: media.bodyLimit } : {}),
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        // Without a level from the declaration: a single resource is answered whole, a list small
        // (docs/formats.md).
        const level = formatLevel(
          isRecord(req.query) ? req.query.format : undefined,
          op.formats?.default ?? (op.envelope === 'list' ? 'small' : 'full'),
        );
        const planned = plans?.[level];
        const auth: Authorised | undefined = isPublic
          ? undefined
          : await authorise(
              deps.database,
              deps.now(),
              op,
              planned,
              { sessionId: requestToken(deps, req).sessionId },
              req,
            );
        // Only authorised requests claim an Idempotency-Key.
        const claimed = op.method === 'POST' && op.idempotent !== false;
        if (claimed && !(await idempotencyBegin(deps, req, reply, auth?.caller))) return reply;
        const upload = op.media ? await receiveUpload(req, op.media) : undefined;
        const received = { params: req.params, query: req.query, body: upload ? undefined : req.body, upload };
        const now = deps.now();
        const context = (db: Executor) => ({ ...commandContext(deps, auth, db, req.log, now), req, reply, app: deps });
        const prepared = op.prepare ? await op.prepare(context(deps.database.db), received) : undefined;
        const input = { ...received, prepared };
        const run = async (db: Executor) => {
          // References (docs/decisions.md, References and tenant isolation): the ids the body references,
          // before anything is stored. On an update (PUT) the ids its target already holds are kept as they are.
          if (op.references && auth)
            await checkReferences(db, auth.caller, op.references, req.body, auth.target, op.method === 'PUT');
          return op.command ? op.command(context(db), input) : op.handler!(context(db), input);
        };
        if (op.envelope === 'binary') {
          const decl = binaryDecl(op.response);
          const answer = await run(deps.database.db);
          if (!isBinaryAnswer(answer)) throw new Error(`operation ${op.operationId} answered no binary answer`);
          return sendBinary(req, reply, decl, answer);
        }
        if (op.envelope === 'raw') {
          await run(deps.database.db);
          return reply;
        }
        reply.code(status);
        if (!req.idempotency) return reply.send(shape(op, await run(deps.database.db), level));
        // Doc 1, Idempotency-Key: the stored answer commits in the same transaction as the change
        // it records, so a crash between the commit and the answer cannot make a retry run twice.
        const payload = await deps.database.db.transaction(async (tx) => {
          const serialize = reply.getSerializationFunction(String(status)) ?? JSON.stringify;
          const answer = shape(op, await run(tx), level);
          const body = isRecord(answer) ? serialize(answer) : JSON.stringify(answer);
          await idempotencyStore(tx, req, status, body, 'application/json; charset=utf-8');
          return body;
        });
        req.idempotency.stored = true;
        return reply.type('application/json; charset=utf-8').send(payload);
      },
    });
  });
}

export function registerAll(app: FastifyInstance, deps: AppDeps, ops: readonly AnyOperation[]): void {
  app.addSchema(ErrorSchema);
  for (const op of ops) registerOperation(app, deps, op);
}
