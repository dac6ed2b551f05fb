// The errors an operation can answer with (docs/decisions.md, Operating the service, "Errors per operation"):
// those its declaration implies (credentials, a target, a body, an Idempotency-Key, references...) and the
// domain errors it declares in `errors`. The OpenAPI document lists, per operation, only these statuses, each with
// its codes from the catalogue; the tests validate every answer against the document, so an
// error an operation gives without declaring it fails the test that meets it.
import { ERRORS, type ErrorKey } from '../errors/catalogue.ts';
import { POLICY } from '../authz/policy.ts';

interface Declared {
  operationId: string;
  method: string;
  params?: unknown;
  query?: unknown;
  body?: unknown;
  media?: unknown;
  consumes?: string[];
  target?: unknown;
  scope?: unknown;
  second?: unknown;
  references?: unknown;
  idempotent?: boolean;
  envelope: string;
  errors?: readonly ErrorKey[];
}

/** Any request may meet these: a malformed URL or request, an APIKey of no active application, the rate limit, a fault, a shutdown. */
const ANY: ErrorKey[] = [
  'VALIDATION_FAILED',
  'API_KEY_NOT_ALLOWED',
  'BAD_URL',
  'MALFORMED_REQUEST',
  'REQUEST_TIMEOUT',
  'HEADERS_TOO_LARGE',
  'TOO_MANY_REQUESTS',
  'INTERNAL',
  'SHUTTING_DOWN',
];

export function operationErrorKeys(op: Declared): ErrorKey[] {
  const keys = new Set<ErrorKey>(ANY);
  const add = (...k: ErrorKey[]) => k.forEach((x) => keys.add(x));
  const entry = POLICY[op.operationId];
  if (entry && entry.kind !== 'public') add('AUTH_REQUIRED', 'TOKEN_INVALID', 'TOKEN_REVOKED', 'TOKEN_EXPIRED');
  if (op.params) add('URI_TOO_LONG');
  if (op.target || op.second) add('FORBIDDEN', 'NOT_FOUND');
  if (op.scope) add('FORBIDDEN');
  // Bodies: Fastify parses one on every method but GET and HEAD.
  if (op.method !== 'GET')
    add('MALFORMED_JSON', 'JSON_TOO_COMPLEX', 'BODY_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'EMPTY_BODY');
  if (op.media) add('MULTIPART_MALFORMED');
  if (op.references) add('UNKNOWN_REFERENCE');
  if (op.method === 'POST' && op.idempotent !== false) add('IDEMPOTENCY_IN_PROGRESS', 'IDEMPOTENCY_KEY_REUSED');
  if (op.envelope === 'binary') add('RANGE_NOT_SATISFIABLE');
  // Writes meet the database's constraints: a unique value taken, a row referenced meanwhile gone.
  if (op.method !== 'GET') add('CONFLICT', 'UNKNOWN_REFERENCE');
  for (const k of op.errors ?? []) add(k);
  return [...keys];
}

/** status -> its errorDetailsCodes, sorted. */
export function errorCodesByStatus(keys: readonly ErrorKey[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const k of keys) {
    const e = ERRORS[k];
    if (!e) throw new Error(`unknown error key ${k}`);
    out.set(
      e.status,
      [...new Set([...(out.get(e.status) ?? []), e.code])].sort((a, b) => a - b),
    );
  }
  return new Map([...out].sort(([a], [b]) => a - b));
}

/** Each code's message, made on first use: the document asks it for every status of every operation. */
let messages: Map<number, string> | undefined;

/** The words of the document for one status: each code with its message. */
export function describeCodes(codes: readonly number[]): string {
  const byCode = (messages ??= new Map(Object.values(ERRORS).map((e) => [e.code, e.message])));
  return codes.map((c) => `\`${c}\` ${byCode.get(c)}`).join('; ');
}
