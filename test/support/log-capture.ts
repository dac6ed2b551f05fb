// A pino logger whose lines the test reads back (what the log transport records, the counters).
import pino from 'pino';
import { Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';

export interface CapturedLog {
  log: FastifyBaseLogger;
  lines: Array<Record<string, any>>;
}

export function captureLog(): CapturedLog {
  const lines: Array<Record<string, any>> = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}
