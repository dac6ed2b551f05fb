// The malformed requests of one operation, generated from its entry in the OpenAPI document:
// every request starts from a valid one (valid ids in the path, required parameters, a body with
// its required fields) and breaks one part of it, so that it gets as far as that part: invalid
// ids in the path, wrong, duplicate and absurd query values, wrong types, nulls, huge and deep
// values, NUL and control characters in the body, bodies that are not JSON, wrong media types,
// bad credentials and headers.
import { fieldPaths, validSample, type DocOperation, type Schema } from './document.ts';
import {
  CONTENT_TYPES,
  NASTY_BODIES,
  NASTY_JSON,
  NASTY_STRINGS,
  NASTY_TYPES,
  PATH_VALUES,
  QUERY_VALUES,
  urlText,
  type Rng,
} from './values.ts';

export interface FuzzRequest {
  /** path, query, body, media or headers: the part that is broken. */
  kind: string;
  /** What was done, short, for the report of a failure. */
  what: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

export interface FuzzContext {
  /** The value of a path parameter that names an existing resource. */
  pathValue: (name: string) => string;
  /** The id of an existing resource for a body field or parameter of that name, if there is one. */
  known: (name: string) => string | undefined;
  /** Stands for the caller's bearer token, put in when the request is sent (the fuzz alternates callers). */
  token: string;
  resolve: (s: unknown) => Schema;
}

const short = (s: string) => (s.length > 60 ? `${s.slice(0, 40)}...(${s.length} chars)` : s);

function baseQuery(op: DocOperation, ctx: FuzzContext, n: number): [string, string][] {
  return op.query
    .filter((q) => q.required)
    .map((q) => [q.name, urlText(String(validSample(q.schema, ctx.resolve, n, ctx.known)))]);
}

function url(
  op: DocOperation,
  ctx: FuzzContext,
  query: [string, string][],
  override?: { name: string; value: string },
): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    override?.name === name ? override.value : ctx.pathValue(name),
  );
  return query.length ? `${path}?${query.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&')}` : path;
}

function baseBody(op: DocOperation, ctx: FuzzContext, n: number): { type: string; text: string } | undefined {
  if (!op.body) return undefined;
  if (op.body.json)
    return { type: 'application/json', text: JSON.stringify(validSample(op.body.json, ctx.resolve, n, ctx.known)) };
  if (op.body.form) {
    const v = validSample(op.body.form, ctx.resolve, n, ctx.known) as Record<string, unknown>;
    return {
      type: 'application/x-www-form-urlencoded',
      text: new URLSearchParams(Object.entries(v).map(([k, x]) => [k, String(x)])).toString(),
    };
  }
  return { type: op.body.types[0], text: 'fuzz' };
}

function base(op: DocOperation, ctx: FuzzContext, n: number): FuzzRequest {
  const body = baseBody(op, ctx, n);
  return {
    kind: '',
    what: '',
    method: op.method,
    url: url(op, ctx, baseQuery(op, ctx, n)),
    headers: {
      ...(op.isPublic ? {} : { authorization: `Bearer ${ctx.token}` }),
      ...(body ? { 'content-type': body.type } : {}),
    },
    ...(body ? { payload: body.text } : {}),
  };
}

/** The valid request the mutations start from. */
export const validRequest = (op: DocOperation, ctx: FuzzContext): FuzzRequest => ({
  ...base(op, ctx, 0),
  kind: 'valid',
  what: 'the valid request',
});

/** Sets the value at `path` of a JSON body to raw JSON text (so that depths JSON.stringify cannot reach go out). */
function withRaw(bodyText: string, path: string[], raw: string | undefined): string {
  const body = JSON.parse(bodyText) as Record<string, unknown>;
  let obj = body;
  for (const k of path.slice(0, -1)) {
    if (typeof obj[k] !== 'object' || obj[k] === null || Array.isArray(obj[k])) obj[k] = {};
    obj = obj[k] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (raw === undefined) {
    delete obj[last];
    return JSON.stringify(body);
  }
  const marker = '\u0007FUZZ-MARKER\u0007';
  obj[last] = marker;
  return JSON.stringify(body).replace(JSON.stringify(marker), () => raw);
}

type Mutation = (op: DocOperation, ctx: FuzzContext, r: Rng, n: number) => FuzzRequest;

const pathMutation: Mutation = (op, ctx, r, n) => {
  const name = r.pick(op.pathParams);
  const value = r.pick(PATH_VALUES);
  return {
    ...base(op, ctx, n),
    kind: 'path',
    what: `${name}=${short(value)}`,
    url: url(op, ctx, baseQuery(op, ctx, n), { name, value }),
  };
};

const queryMutation: Mutation = (op, ctx, r, n) => {
  const names = op.query.length ? op.query.map((q) => q.name) : ['limit', 'zz'];
  const name = r.pick(names);
  const v = () => r.pick(QUERY_VALUES);
  const query = baseQuery(op, ctx, n).filter(([k]) => k !== name);
  const form = r.int(8);
  let added: [string, string][];
  if (form === 0)
    added = [
      [name, v()],
      [name, v()],
    ];
  else if (form === 1)
    added = [
      [`${name}[]`, v()],
      [`${name}[0]`, v()],
    ];
  else if (form === 2) added = [[`${name}[a]`, v()]];
  else if (form === 3) added = [[name, undefined as unknown as string]];
  else if (form === 4)
    added = Array.from({ length: 300 }, (_, i) => [i % 2 ? name : `q${i}`, String(i)] as [string, string]);
  else if (form === 5) added = [[name, 'x'.repeat(12_000)]];
  else added = [[name, v()]];
  const what =
    form === 4
      ? `300 parameters around ${name}`
      : `${name} ${added.map(([k, x]) => `${k}=${short(String(x))}`).join(' & ')}`;
  return { ...base(op, ctx, n), kind: 'query', what, url: url(op, ctx, [...query, ...added]) };
};

const bodyMutation: Mutation = (op, ctx, r, n) => {
  const b = base(op, ctx, n);
  const paths = fieldPaths(op.body?.json ?? op.body?.form, ctx.resolve);
  const form = r.int(10);
  if (op.body?.form && !op.body.json) {
    const name = paths.length ? r.pick(paths)[0] : 'grant_type';
    const value = form < 7 ? urlText(r.pick(NASTY_STRINGS)) : r.pick(QUERY_VALUES);
    return {
      ...b,
      kind: 'body',
      what: `form ${name}=${short(value)}`,
      payload: `${String(b.payload)}&${name}=${value}`,
    };
  }
  if (!op.body?.json) {
    const raw = r.pick(NASTY_BODIES);
    return { ...b, kind: 'body', what: `raw ${short(String(raw))}`, payload: raw };
  }
  if (form < 6 && paths.length) {
    const path = r.pick(paths);
    const raw = r.pick(r.pick(NASTY_JSON));
    return {
      ...b,
      kind: 'body',
      what: `${path.join('.')}=${short(raw)}`,
      payload: withRaw(String(b.payload), path, raw),
    };
  }
  if (form === 6) {
    const required = (ctx.resolve(op.body.json).required ?? []) as string[];
    if (required.length) {
      const name = r.pick(required);
      return {
        ...b,
        kind: 'body',
        what: `without required ${name}`,
        payload: withRaw(String(b.payload), [name], undefined),
      };
    }
  }
  if (form === 7 && paths.length) {
    // Duplicate keys: the parser keeps one; which one must not matter to the answer's shape.
    const [name] = r.pick(paths);
    const text = String(b.payload).replace(
      /^\{/,
      `{${JSON.stringify(name)}:${r.pick(NASTY_TYPES)},${JSON.stringify(name)}:${r.pick(NASTY_TYPES)}${String(b.payload) === '{}' ? '' : ','}`,
    );
    return { ...b, kind: 'body', what: `duplicate ${name}`, payload: text };
  }
  if (form === 8) {
    const raw = r.pick(r.pick(NASTY_JSON));
    return {
      ...b,
      kind: 'body',
      what: `unknown field = ${short(raw)}`,
      payload: withRaw(String(b.payload), ['zzUnknown'], raw),
    };
  }
  const raw = r.pick(NASTY_BODIES);
  return { ...b, kind: 'body', what: `whole body ${short(String(raw))}`, payload: raw };
};

const mediaMutation: Mutation = (op, ctx, r, n) => {
  const b = base(op, ctx, n);
  const type = r.pick(CONTENT_TYPES);
  const payload = r.int(3) === 0 ? r.pick(NASTY_BODIES) : (b.payload ?? '{"a":1}');
  return {
    ...b,
    kind: 'media',
    what: `content-type ${short(type)}`,
    headers: { ...b.headers, 'content-type': type },
    payload,
  };
};

const headerMutation: Mutation = (op, ctx, r, n) => {
  const b = base(op, ctx, n);
  const choices: [string, Record<string, string | undefined>][] = [
    ['no credentials', { authorization: undefined }],
    ['a malformed bearer token', { authorization: 'Bearer not.a.token' }],
    ['an empty bearer token', { authorization: 'Bearer ' }],
    ['a bearer token with trailing bytes', { authorization: `Bearer ${ctx.token}x` }],
    ['a huge bearer token', { authorization: `Bearer ${'x'.repeat(8000)}` }],
    ['Basic garbage', { authorization: 'Basic !!!not-base64' }],
    [
      'Basic of unknown credentials',
      { authorization: `Basic ${Buffer.from('nobody@example.com:x').toString('base64')}` },
    ],
    ['Basic without a colon', { authorization: `Basic ${Buffer.from('\u0000\u0001').toString('base64')}` }],
    ['an unknown scheme', { authorization: 'Digest x' }],
    ['an unknown APIKey', { apikey: 'x'.repeat(64) }],
    ['a huge Idempotency-Key', { 'idempotency-key': 'k'.repeat(5000) }],
    ['an empty Idempotency-Key', { 'idempotency-key': '' }],
    ['Accept: application/xml', { accept: 'application/xml' }],
    ['a malformed Range', { range: 'bytes=abc' }],
    ['an absurd Range', { range: 'bytes=99999999999999999999-' }],
    [
      'a Range of 200 parts',
      { range: `bytes=${Array.from({ length: 200 }, (_, i) => `${i * 2}-${i * 2}`).join(',')}` },
    ],
    ['a malformed If-Modified-Since', { 'if-modified-since': 'yesterday' }],
    ['a malformed Accept-Language', { 'accept-language': '*;q=abc,,,' }],
    ['a malformed X-Forwarded-For', { 'x-forwarded-for': 'not-an-address, ,,' }],
  ];
  const [what, change] = r.pick(choices);
  const headers: Record<string, string> = { ...b.headers };
  for (const [k, v] of Object.entries(change)) {
    if (v === undefined) delete headers[k];
    else headers[k] = v;
  }
  return { ...b, kind: 'headers', what, headers };
};

/**
 * `count` requests for `op`, at least 3 of each kind that applies to it (path: it has path
 * parameters; body: it takes one), the rest drawn by weight.
 */
export function fuzzRequests(op: DocOperation, ctx: FuzzContext, r: Rng, count: number): FuzzRequest[] {
  const kinds: [Mutation, number][] = [
    ...(op.pathParams.length ? ([[pathMutation, 3]] as [Mutation, number][]) : []),
    [queryMutation, op.query.length ? 3 : 1],
    ...(op.body ? ([[bodyMutation, 6]] as [Mutation, number][]) : []),
    [mediaMutation, op.body ? 2 : 1],
    [headerMutation, 2],
  ];
  const total = kinds.reduce((s, [, w]) => s + w, 0);
  const plan: Mutation[] = kinds.flatMap(([m]) => [m, m, m]);
  while (plan.length < count) {
    let x = r.int(total);
    plan.push(kinds.find(([, w]) => (x -= w) < 0)![0]);
  }
  return plan.map((m, i) => m(op, ctx, r, i));
}
