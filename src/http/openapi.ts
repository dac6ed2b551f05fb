// OpenAPI 3.1, generated from the route declarations by @fastify/swagger; served as JSON at
// /api/svc/openapi.json with an interactive page at /api/svc/docs.
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { documentMedia } from './media.ts';

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Administration service',
        version: '1.0.0',
        description: 'Companies, users, commerce and voice provisioning of a cloud communications platform. Roles per operation are in each description.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'token from login or OAuth, sent as `Authorization: Bearer <token>`' },
        },
      },
      security: [{ bearer: [] }],
    },
    // Raw and multipart request bodies are not validated by Fastify (only JSON is): the document
    // gets them from the operation's media declaration.
    transform: ({ schema, url, route }) => ({ schema: documentMedia(schema, route.config), url }),
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/api/svc/docs', staticCSP: false });
  app.get('/api/svc/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
