// The service's log lines go to standard output in blocks of up to 4 KB (src/http/log-destination.ts:
// pino's writer, sonic-boom, asynchronous). What that must keep: every line, whole and in order,
// including those still pending or being written when the process exits.
// No database: the PostgreSQL pass of .ci/run skips it (SKIP_ENGINE_FREE).
import { describe, it } from 'node:test';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from '../support/expect.ts';
import { SKIP_ENGINE_FREE } from '../support/generated-suites.ts';

const destination = fileURLToPath(new URL('../../src/http/log-destination.ts', import.meta.url));

/**
 * The standard output of a process that logs `n` lines as fast as it can, then exits at once
 * (`process.exit`, as the service does once stopped) or when its work is done.
 */
function logAndExit(n: number, exit: 'process.exit' | 'end of work'): Promise<string> {
  const script = `
    import pino from 'pino';
    import { logDestination } from ${JSON.stringify(destination)};
    const log = pino({ level: 'info' }, logDestination());
    for (let i = 1; i <= ${n}; i++) log.info({ i, url: '/api/svc/admin/v1.0/users/' + i }, 'request completed');
    log.info('stopped');
    ${exit === 'process.exit' ? 'process.exit(0);' : ''}
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', '--input-type=module', '-e', script],
      { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out).toString('utf8')) : reject(new Error(`exit ${code}`)),
    );
  });
}

describe('issue 24, point 5: log lines written in blocks', { skip: SKIP_ENGINE_FREE }, () => {
  for (const exit of ['process.exit', 'end of work'] as const)
    it(`every line arrives whole and in order, the last ones too when the process exits right after them (${exit})`, async () => {
      const n = 50_000;
      const lines = (await logAndExit(n, exit)).split('\n').filter(Boolean);
      expect(lines.length).toBe(n + 1);
      const parsed = lines.map((l) => JSON.parse(l) as { i?: number; msg: string });
      parsed.slice(0, n).forEach((p, k) => expect(p.i).toBe(k + 1));
      expect(parsed[n].msg).toBe('stopped');
    });
});
