// One log line per request (docs/operations.md, Logs): written when the answer has gone, with
// what an operator looks for (method, URL, client address, status, time taken) and the request id
// every other line of the request carries. Fastify's own request logging writes two lines (one on
// arrival, one on completion), which doubles the cost of logging at the default level.
import type { FastifyInstance } from 'fastify';

export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', (req, reply, done) => {
    req.log.info(
      {
        // Fastify's `req` serializer (node_modules/fastify/lib/logger-pino.js) writes `ip` as remoteAddress.
        req: { method: req.method, url: req.url, ip: req.ip },
        res: { statusCode: reply.statusCode },
        responseTime: reply.elapsedTime,
      },
      'request completed',
    );
    done();
  });
}
