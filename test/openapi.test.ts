// The OpenAPI document (issue 2, point 10): it is served, it describes exactly the routes the
// service registers, each operation carries its declared operationId and its roles, every
// operation documents its error answers with the Error schema, and the response validator that
// every test runs (test/support/openapi-validator.ts) really refuses what the document forbids.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { expect } from './support/expect.ts';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, bearer, type TestApp } from './support/harness.ts';
import { makeUser } from './support/factories.ts';
import {
  OpenApiValidationError,
  findPathTemplate,
  schemaErrors,
  validateResponse,
} from './support/openapi-validator.ts';
import { OPERATIONS } from '../src/modules/index.ts';
import { fullPath } from '../src/http/operation.ts';
import { errorCodesByStatus, operationErrorKeys } from '../src/http/operation-errors.ts';
import { POLICY } from '../src/authz/policy.ts';
import { describePolicy } from '../src/authz/describe.ts';

type Json = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;
/**
 * Routes that are not operations of the service and are left out of the document on purpose: the
 * probes, the document and its pages, and the web console's files (issue 28: built on the public
 * API only, it adds no operation).
 */
const INFRASTRUCTURE = [
  /^\/(health|ready|metrics)$/,
  /^\/api\/svc\/openapi\.json$/,
  /^\/api\/svc\/docs(\/.*)?$/,
  /^\/console(\/.*)?$/,
];
const isInfrastructure = (path: string) => INFRASTRUCTURE.some((r) => r.test(path));

let t: TestApp;
let spec: Json;

beforeAll(async () => {
  t = await createTestApp();
  const res = await t.inject({ method: 'GET', url: '/api/svc/openapi.json' });
  expect(res.statusCode).toBe(200);
  spec = res.json();
});
afterAll(() => t.close());

/**
 * `/users/{userId}` -> `/users/:userId`, and a parameter of several segments (a wildcard route,
 * marked `x-several-segments`, or still `{*}`) back to `*`.
 */
const toFastifyPath = (p: string, op?: Json) => {
  const several = new Set<string>(
    ((op?.parameters ?? []) as Json[])
      .filter((x) => x.in === 'path' && x.schema?.['x-several-segments'])
      .map((x) => x.name as string),
  );
  return p.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === '*' || several.has(name) ? '*' : `:${name}`));
};
/** Parameter names do not matter to the router; two routes differing only by them are one. */
const shape = (methodAndPath: string) => methodAndPath.replace(/:[A-Za-z0-9_]+/g, ':');

function documentedOperations(): { method: string; path: string; op: Json }[] {
  const out: { method: string; path: string; op: Json }[] = [];
  for (const [path, item] of Object.entries(spec.paths as Json)) {
    for (const m of METHODS) if (item[m]) out.push({ method: m.toUpperCase(), path, op: item[m] });
  }
  return out;
}

/**
 * Every (method, path) Fastify serves, read from printRoutes({ commonPrefix: false }): each line
 * of the tree is a piece of path appended to its parent's, with the methods of the route that
 * ends there. A parametric node shared by routes with different parameter names prints as
 * `:a|:b`; every spelling is produced (they have the same shape).
 */
function registeredRoutes(): Set<string> {
  const text = t.app.printRoutes({ commonPrefix: false });
  const prefixes: string[][] = [];
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.+?)(?: \(([A-Z]+(?:, [A-Z]+)*)\))?(?: \{.*\})?$/.exec(line);
    if (!m) throw new Error(`unexpected printRoutes line: ${JSON.stringify(line)}`);
    const depth = m[1].length / 4;
    // `/:fileId|:greetingId`: the '/' before the node is printed once, before the first name.
    const alternatives = m[2].split('|');
    const slash = alternatives[0].startsWith('/') ? '/' : '';
    const pieces = alternatives.map((a, i) => (i > 0 && slash && !a.startsWith('/') ? slash + a : a));
    const parents = depth === 0 ? [''] : prefixes[depth - 1];
    // find-my-way prints the wildcard child of a static node (`/invoices/*`) as `*`, without its '/'.
    const paths = parents.flatMap((p) =>
      pieces.map((piece) => (piece === '*' && !p.endsWith('/') ? `${p}/*` : p + piece)),
    );
    prefixes[depth] = paths;
    prefixes.length = depth + 1;
    for (const method of m[3]?.split(', ') ?? []) for (const p of paths) out.add(`${method} ${p}`);
  }
  return out;
}

describe('the document is served', () => {
  it('GET /api/svc/openapi.json returns OpenAPI 3.1.x with paths and the Error component', () => {
    expect(spec.openapi).toMatch(/^3\.1\.\d+$/);
    expect(Object.keys(spec.paths).length).toBeGreaterThan(0);
    expect(spec.components?.schemas?.Error?.required).toEqual(
      expect.arrayContaining(['errorCode', 'errorMsg', 'errorDetails', 'errorDetailsCode']),
    );
  });

  it('/api/svc/docs serves the interactive page (200, HTML)', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/svc/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
  });
});

describe('the document describes exactly the routes of the service', () => {
  it('the registered routes equal the documented (method, path) pairs, infrastructure aside', () => {
    const registered = registeredRoutes();
    // The parse of the tree is checked against the router and against the declarations.
    for (const r of registered) {
      const [method, url] = r.split(' ') as [string, string];
      if (!isInfrastructure(url)) expect(t.app.hasRoute({ method: method, url }), `${r} is not a route`).toBe(true);
    }
    const registeredShapes = new Set([...registered].map(shape));
    for (const op of OPERATIONS) {
      for (const p of [op.path, ...(op.aliases ?? [])]) {
        const r = `${op.method} ${fullPath(p)}`;
        expect(
          registeredShapes.has(shape(r)),
          `${op.operationId}: ${r} is declared but not found among the routes`,
        ).toBe(true);
      }
    }

    // HEAD routes are the ones Fastify adds beside each GET (exposeHeadRoutes).
    const served = [...registered].filter((r) => {
      const [method, path] = r.split(' ') as [string, string];
      if (isInfrastructure(path)) return false;
      return !(method === 'HEAD' && registered.has(`GET ${path}`));
    });
    const documented = documentedOperations().map((d) => `${d.method} ${toFastifyPath(d.path, d.op)}`);
    const servedShapes = new Map(served.map((r) => [shape(r), r]));
    const documentedShapes = new Map(documented.map((r) => [shape(r), r]));
    const undocumented = [...servedShapes].filter(([s]) => !documentedShapes.has(s)).map(([, r]) => r);
    const unserved = [...documentedShapes].filter(([s]) => !servedShapes.has(s)).map(([, r]) => r);
    expect({ undocumented, unserved }).toEqual({ undocumented: [], unserved: [] });
    expect(documented.length).toBe(documentedShapes.size);
  });

  it('every declared operation and alias is in the document under its operationId', () => {
    const byId = new Map(documentedOperations().map((d) => [d.op.operationId as string, d]));
    expect(byId.size, 'operationIds are unique').toBe(documentedOperations().length);
    for (const op of OPERATIONS) {
      [op.path, ...(op.aliases ?? [])].forEach((p, i) => {
        const id = i === 0 ? op.operationId : `${op.operationId}_alias${i}`;
        const d = byId.get(id);
        expect(d, `${id} is not in the document`).toBeDefined();
        expect(`${d!.method} ${toFastifyPath(d!.path, d!.op)}`).toBe(`${op.method} ${fullPath(p)}`);
      });
    }
  });
});

describe('every operation', () => {
  it('has a description that lists the roles of the policy table', () => {
    for (const { method, path, op } of documentedOperations()) {
      const id = String(op.operationId).replace(/_alias\d+$/, '');
      const entry = POLICY[id];
      expect(entry, `${method} ${path}: ${id} has no policy entry`).toBeDefined();
      const description = String(op.description ?? '');
      expect(description, id).toContain(
        describePolicy(
          id,
          OPERATIONS.find((o) => o.operationId === id),
        ),
      );
      if (entry.kind === 'grants') {
        for (const role of new Set(entry.grants.flatMap((g) => g.roles)))
          expect(description, `${id} does not name ${role}`).toMatch(new RegExp(`\\b${role}\\b`));
      } else {
        expect(description, id).toMatch(entry.kind === 'public' ? /Roles: public/ : /Roles: any signed-in user/);
      }
      // Public operations say so in the document too: no bearer token; those that read credentials
      // of their own (login's Basic, the OAuth client's) name those schemes instead.
      if (entry.kind === 'public')
        expect(
          (op.security as Array<Record<string, unknown>>).every((r) => !('bearer' in r)),
          `${id} is public`,
        ).toBe(true);
      else expect(op.security === undefined || op.security.length > 0, `${id} needs a token`).toBe(true);
    }
  });

  it('issue 28, point 1: carries in x-svc-roles the role sets of its grants (the console reads them), none when public or any caller', () => {
    for (const { method, path, op } of documentedOperations()) {
      const id = String(op.operationId).replace(/_alias\d+$/, '');
      const entry = POLICY[id];
      const sets: unknown = op['x-svc-roles'];
      if (entry.kind !== 'grants') {
        expect(sets, `${method} ${path}`).toBeUndefined();
        continue;
      }
      // Each grant's roles, held together, appear once as a set; nothing else does.
      const expected = new Set(entry.grants.map((g) => [...g.roles].sort().join('+')));
      expect(Array.isArray(sets), `${id} has x-svc-roles`).toBe(true);
      const got = (sets as string[][]).map((set) => [...set].sort().join('+'));
      expect(new Set(got), id).toEqual(expected);
      expect(got.length, `${id}: no set twice`).toBe(expected.size);
    }
  });

  it('documents only the error statuses it can give, each with its codes from the catalogue (issue 13, point 7)', () => {
    for (const { method, path, op } of documentedOperations()) {
      const id = String(op.operationId).replace(/_alias\d+$/, '');
      const declared = OPERATIONS.find((o) => o.operationId === id)!;
      const expected = errorCodesByStatus(operationErrorKeys(declared));
      const responses = op.responses as Json;
      expect(
        Object.keys(responses)
          .filter((s) => /^[45]/.test(s))
          .map(Number),
        `${method} ${path}`,
      ).toEqual([...expected.keys()]);
      // A GET takes no body: it never answers 413 or 415.
      if (method === 'GET')
        expect(Object.keys(responses), `${method} ${path}`).not.toEqual(expect.arrayContaining(['413']));
      if (POLICY[id].kind !== 'public') expect(Object.keys(responses), `${method} ${path}`).toContain('401');
      for (const [status, response] of Object.entries(responses)) {
        if (!/^[45]/.test(status)) continue;
        const r = response.$ref ? resolve(response.$ref) : response;
        const codes = expected.get(Number(status))!;
        expect(r.content?.['application/json']?.schema, `${method} ${path} ${status}`).toEqual({
          allOf: [
            { $ref: '#/components/schemas/Error' },
            {
              type: 'object',
              properties: { errorCode: { enum: [Number(status)] }, errorDetailsCode: { enum: codes } },
            },
          ],
        });
        for (const c of codes) expect(r.description, `${method} ${path} ${status}`).toContain(`\`${c}\``);
      }
      const success = Object.keys(responses).filter((s) => /^[23]/.test(s));
      expect(
        success.length,
        `${method} ${path} (${op.operationId}) documents no success status`,
      ).toBeGreaterThanOrEqual(
        // Operations that write their reply themselves (envelope 'raw': redirects, forms) may not.
        OPERATIONS.find((o) => o.operationId === op.operationId)?.envelope === 'raw' ? 0 : 1,
      );
    }
  });
});

function resolve(ref: string): Json {
  return ref
    .slice(2)
    .split('/')
    .reduce((o: Json, k) => o[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
}

describe('the response validator', () => {
  const S: Json = {
    openapi: '3.1.0',
    paths: {
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          responses: {
            200: {
              description: 'ok',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['data'],
                    properties: {
                      data: {
                        type: 'object',
                        required: ['id', 'n'],
                        properties: {
                          id: { type: 'string' },
                          n: { type: 'integer' },
                          at: { type: 'string', format: 'date-time' },
                        },
                        additionalProperties: false,
                      },
                    },
                  },
                },
              },
            },
            404: { $ref: '#/components/responses/NotFound' },
          },
        },
      },
      '/things/special': {
        get: {
          operationId: 'special',
          responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'array' } } } } },
        },
      },
    },
    components: {
      responses: {
        NotFound: {
          description: 'nf',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      schemas: { Error: { type: 'object', required: ['errorCode'], properties: { errorCode: { type: 'integer' } } } },
    },
  };
  const res = (statusCode: number, body: unknown, contentType = 'application/json; charset=utf-8') =>
    ({
      statusCode,
      headers: { 'content-type': contentType },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }) as unknown as LightMyRequestResponse;
  const check =
    (url: string, r: LightMyRequestResponse, method = 'GET') =>
    () =>
      validateResponse(S, method, url, r);

  it('accepts a response that matches its schema, with the query stripped', () => {
    expect(
      check('/things/a1?format=full', res(200, { data: { id: 'a1', n: 3, at: '2026-01-01T00:00:00.000Z' } })),
    ).not.toThrow();
    expect(check('/things/zz', res(404, { errorCode: 404 }))).not.toThrow();
  });

  it('refuses a missing required field, a wrong type, an extra field of a closed object, a bad format', () => {
    expect(check('/things/a1', res(200, { data: { id: 'a1' } }))).toThrow(OpenApiValidationError);
    expect(check('/things/a1', res(200, { data: { id: 'a1', n: '3' } }))).toThrow(/\/data\/n must be integer/);
    expect(check('/things/a1', res(200, { data: { id: 'a1', n: 3, secret: 'x' } }))).toThrow(/additional properties/);
    expect(check('/things/a1', res(200, { data: { id: 'a1', n: 3, at: 'yesterday' } }))).toThrow(/format/);
    expect(check('/things/a1', res(404, { errorCode: 'nope' }))).toThrow(/errorCode must be integer/);
  });

  it('refuses a status the operation does not document, and a JSON body that does not parse', () => {
    expect(check('/things/a1', res(500, { errorCode: 500 }))).toThrow(/status 500 is not documented/);
    expect(check('/things/a1', res(200, '{"data":'))).toThrow(/does not parse/);
  });

  it('matches literal segments before parameters, and skips what the document does not describe', () => {
    expect(findPathTemplate(S, '/things/special')).toBe('/things/special');
    expect(findPathTemplate(S, '/things/other')).toBe('/things/{id}');
    expect(check('/things/special', res(200, []))).not.toThrow();
    expect(check('/nowhere', res(404, { anything: true }))).not.toThrow();
    expect(check('/things/a1', res(200, '<html></html>', 'text/html'))).not.toThrow();
    expect(check('/things/a1', res(302, '', 'text/plain'))).not.toThrow();
    expect(check('/things/a1', res(405, { x: 1 }), 'PATCH')).not.toThrow();
  });

  it('refuses a real response of the service once it no longer matches the published document', async () => {
    const u = await makeUser(t, t.defaultCompanyId);
    const url = `/api/svc/admin/v1.0/users/${u.id}?format=full`;
    const real = await t.app.inject({ method: 'GET', url, headers: bearer(t.superToken) });
    expect(real.statusCode).toBe(200);
    expect(() => validateResponse(spec, 'GET', url, real)).not.toThrow();
    const body = real.json();
    const tampered = (data: Json) => ({ ...real, body: JSON.stringify({ ...body, data }) });
    expect(() => validateResponse(spec, 'GET', url, tampered({ ...body.data, isTerminated: 'no' }))).toThrow(
      /isTerminated must be boolean/,
    );
    expect(() => validateResponse(spec, 'GET', url, tampered({ ...body.data, creationDate: 'yesterday' }))).toThrow(
      /creationDate must match format/,
    );
    expect(() => validateResponse(spec, 'GET', url, { ...real, statusCode: 418 })).toThrow(/not documented/);
    // An application is a closed object: a field the document does not list is refused.
    const created = await t.inject({
      method: 'POST',
      url: '/api/svc/applications/v1.0/applications',
      headers: bearer(u.token),
      payload: { name: 'probe' },
    });
    const appUrl = `/api/svc/applications/v1.0/applications/${created.json().data.appId}`;
    const app = await t.app.inject({ method: 'GET', url: appUrl, headers: bearer(u.token) });
    expect(() => validateResponse(spec, 'GET', appUrl, app)).not.toThrow();
    const leaky = {
      ...app,
      body: JSON.stringify({ data: { ...app.json().data, secretHash: 'x' } }),
    };
    expect(() => validateResponse(spec, 'GET', appUrl, leaky)).toThrow(/must NOT have additional properties/);
    const error = await t.app.inject({
      method: 'GET',
      url: `/api/svc/admin/v1.0/users/nobody`,
      headers: bearer(t.superToken),
    });
    expect(error.statusCode).toBe(404);
    const broken = {
      ...error,
      body: JSON.stringify({ ...error.json(), errorCode: undefined }),
    };
    expect(() => validateResponse(spec, 'GET', '/api/svc/admin/v1.0/users/nobody', broken)).toThrow(
      /must have required property 'errorCode'/,
    );
  });
});

describe('issue 13, point 7: the document is first-class', () => {
  it('declares the Bearer, Basic, APIKey and x-svc-app-auth schemes; login can be tried with Basic', () => {
    const doc = spec;
    const schemes = (
      doc.components as { securitySchemes: Record<string, { type: string; scheme?: string; name?: string }> }
    ).securitySchemes;
    expect(schemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.basic).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(schemes.apiKey).toMatchObject({ type: 'apiKey', name: 'APIKey' });
    expect(schemes.appAuth).toMatchObject({ type: 'apiKey', name: 'x-svc-app-auth' });
    const login = (doc.paths as Record<string, Record<string, { security: unknown }>>)[
      '/api/svc/authentication/v1.0/login'
    ].get;
    expect(login.security).toEqual([{ basic: [] }, { basic: [], appAuth: [] }]);
  });

  it('servers and info are complete, and the resources are shared components', () => {
    const doc = spec;
    expect(doc.servers).toEqual([{ url: '/', description: 'this instance' }]);
    expect(doc.info).toMatchObject({ license: { name: expect.any(String) }, contact: { name: expect.any(String) } });
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    for (const name of ['Company', 'User', 'Site', 'Organisation', 'Offer', 'Catalog', 'Application', 'Error'])
      expect(schemas, name).toHaveProperty(name);
    const getCompany = JSON.stringify(
      (doc.paths as Record<string, unknown>)['/api/svc/admin/v1.0/companies/{companyId}'],
    );
    expect(getCompany).toContain('"$ref":"#/components/schemas/Company"');
  });
});

describe('issue 13, point 7: examples', () => {
  it('every JSON request body and success answer has an example that its schema accepts', () => {
    let n = 0;
    for (const { method, path, op } of documentedOperations()) {
      const media: Array<[string, Json | undefined]> = [
        ['request body', (op.requestBody as Json | undefined)?.content?.['application/json']],
      ];
      for (const [status, answer] of Object.entries(op.responses as Json))
        if (/^2/.test(status)) media.push([`answer ${status}`, (answer as Json).content?.['application/json']]);
      for (const [what, m] of media) {
        if (!m?.schema) continue;
        expect(m.example, `${method} ${path}: ${what} has no example`).toBeDefined();
        expect(schemaErrors(spec, m.schema, m.example), `${method} ${path}: ${what}`).toBeUndefined();
        n++;
      }
    }
    expect(n).toBeGreaterThan(60);
  });
});
