// OpenAPI 3.1, generated from the route declarations by @fastify/swagger; served as JSON at
// /api/svc/openapi.json with an interactive page at /api/svc/docs.
import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import { PAGES_PREFIX } from './security-headers.ts';
import swaggerUi from '@fastify/swagger-ui';
import { documentMedia } from './media.ts';
import { hoistNamedSchemas } from './openapi-components.ts';
import { addExamples } from './openapi-examples.ts';
import { describeCodes } from './operation-errors.ts';
import { isRecord } from '../shared/json-values.ts';

/**
 * Each error status of an operation, with the codes it can carry: named in
 * the description and pinned in the schema, so an answer with another code does not match.
 */
function documentErrors(schema: FastifySchema, config: RouteOptions['config']): FastifySchema {
  const codes = config?.errorCodes;
  if (!codes || !isRecord(schema.response)) return schema;
  const response = { ...schema.response };
  for (const [status, list] of codes) {
    response[status] = {
      description: describeCodes(list),
      allOf: [
        { $ref: 'Error' },
        { type: 'object', properties: { errorCode: { const: status }, errorDetailsCode: { enum: list } } },
      ],
    };
  }
  return { ...schema, response };
}

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Administration service',
        version: '1.0.0',
        summary: "The REST interface of a cloud communications platform's administration",
        description:
          'Companies, users, commerce and voice provisioning of a cloud communications platform. Roles per operation are in each description. ' +
          'Sign in with **login** (Basic credentials; *Authorize* with `basic`), then use the token it returns as `bearer`.',
        license: { name: 'Proprietary', url: 'https://example.com/svc-admin/license' },
        contact: { name: 'svc-admin maintainers', url: 'https://example.com/svc-admin' },
      },
      // Relative: the document describes the instance that serves it, wherever it is deployed.
      servers: [{ url: '/', description: 'this instance' }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'token from login or OAuth, sent as `Authorization: Bearer <token>`',
          },
          basic: {
            type: 'http',
            scheme: 'basic',
            description: 'login email and password (login), or application id and secret (OAuth token endpoint)',
          },
          apiKey: {
            type: 'apiKey',
            in: 'header',
            name: 'APIKey',
            description:
              'key of an application; when present it must be the key of an active application (document 1, Authentication 4)',
          },
          appAuth: {
            type: 'apiKey',
            in: 'header',
            name: 'x-svc-app-auth',
            description: 'application proof at login: `Basic base64(appId:sha256hex(appSecret + password))`',
          },
        },
      },
      security: [{ bearer: [] }, { bearer: [], apiKey: [] }],
    },
    // Both change the document in place.
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      addExamples(hoistNamedSchemas(documentObject.openapiObject));
      return documentObject.openapiObject;
    },
    // Raw and multipart request bodies are not validated by Fastify (only JSON is): the document
    // gets them from the operation's media declaration.
    transform: ({ schema, url, route }) =>
      namedWildcard(documentErrors(documentMedia(schema, route.config), route.config), url),
    refResolver: {
      buildLocalReference: (json, _base, _frag, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: PAGES_PREFIX, staticCSP: false });
  app.get('/api/svc/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

/**
 * A route ending in a wildcard (`…/invoices/*`, a path of several segments) appears in the
 * document under the name the route table gives it (`{invoicePath}`): the `title` of the
 * wildcard's parameter schema, marked `x-several-segments` (its value holds '/'). Without one
 * the document would show `{*}`, a parameter name that is not one.
 */
function namedWildcard<S extends { params?: unknown }>(schema: S, url: string): { schema: S; url: string } {
  const params = schema?.params;
  const properties = isRecord(params) ? params.properties : undefined;
  const wildcard = isRecord(properties) ? properties['*'] : undefined;
  const name = isRecord(wildcard) ? wildcard.title : undefined;
  if (!url.endsWith('/*') || typeof name !== 'string' || !name) return { schema, url };
  if (!isRecord(params) || !isRecord(properties) || !isRecord(wildcard)) return { schema, url };
  const { '*': _wildcard, ...rest } = properties;
  const required: unknown[] = Array.isArray(params.required) ? params.required : [];
  const renamed = {
    ...params,
    properties: { ...rest, [name]: { ...wildcard, 'x-several-segments': true } },
    required: required.map((r) => (r === '*' ? name : r)),
  };
  return { schema: { ...schema, params: renamed }, url: `${url.slice(0, -1)}:${name}` };
}
