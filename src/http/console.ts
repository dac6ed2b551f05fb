// The web console (issue 28), served by the service at /console: the files `npm run console:build`
// writes to .build/console (the `prepare` step of `npm ci`). The console is built on the public
// API only; these routes serve files and nothing else, and are not operations of the API.
// - /console/assets/*: names carry a hash of their content, so they are cached for a year
//   (immutable); the brotli and gzip copies made at build time are sent when the browser accepts them.
// - /console/<name>.<ext>: a file of the build's top folder (the icon), revalidated on each use;
// - any other /console path: the page (index.html), never cached, so a new build is seen at once;
//   the console's own router then shows the page the path names.
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_DIR } from '../bundle.ts';
import { CONSOLE_PREFIX } from './security-headers.ts';

export const consoleDir = (dir = BUILD_DIR) => join(dir, 'console');

const YEAR = 'public, max-age=31536000, immutable';

export async function installConsole(app: FastifyInstance, dir = consoleDir()): Promise<void> {
  if (!existsSync(join(dir, 'index.html'))) {
    app.log.warn({ dir }, 'the console is not built (npm run console:build): /console answers 404');
    return;
  }
  await app.register(fastifyStatic, {
    root: dir,
    serve: false,
    preCompressed: true,
    // Cache-Control is set below per kind of file; ETag and Last-Modified let a reload revalidate.
    cacheControl: false,
  });
  const page = { schema: { hide: true } };
  app.get(CONSOLE_PREFIX, page, (_req, reply) => reply.redirect(`${CONSOLE_PREFIX}/`, 301));
  app.get(`${CONSOLE_PREFIX}/assets/*`, page, (req, reply) => {
    reply.header('Cache-Control', YEAR);
    const params: { '*'?: string } = req.params ?? {};
    return reply.sendFile(`assets/${params['*'] ?? ''}`);
  });
  app.get(`${CONSOLE_PREFIX}/*`, page, (req, reply) => {
    const params: { '*'?: string } = req.params ?? {};
    const path = params['*'] ?? '';
    reply.header('Cache-Control', 'no-cache');
    // A file of the build's top folder (favicon.svg); any other path is a page of the console.
    return reply.sendFile(/^[\w.-]+\.\w+$/.test(path) ? path : 'index.html');
  });
}
