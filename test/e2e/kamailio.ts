// The Kamailio (SIP registrar) and sipp (SIP phones) of the end-to-end tests. .ci/run starts
// Kamailio with .ci/kamailio/start.sh and exports these variables; the defaults are that script's.
import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { fileURLToPath } from 'node:url';

export const KAMAILIO = {
  databaseUrl: process.env.E2E_KAMAILIO_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/svc_kamailio_ci',
  ctl: process.env.E2E_KAMAILIO_CTL ?? 'unix:/tmp/svc-kamailio/kamailio_ctl',
  host: '127.0.0.1',
  sipPort: Number(process.env.E2E_SIP_PORT ?? 15060),
};

export const HOW_TO_START_KAMAILIO =
  'start it with: bash .ci/kamailio/start.sh (Debian packages kamailio, kamailio-postgres-modules and sip-tester; bash .ci/run installs and starts it)';

export interface Run {
  code: number | null;
  output: string;
}

/** Runs a program (arguments as an array, no shell), at most timeoutMs; never throws on its exit code. */
export function run(program: string, args: string[], o: { timeoutMs: number; cwd?: string }): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      program,
      args,
      { timeout: o.timeoutMs, cwd: o.cwd, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, output: `${stdout}\n${stderr}${err && code === null ? `\n${err.message}` : ''}` });
      },
    );
  });
}

export const kamcmd = (...args: string[]) => run('kamcmd', ['-s', KAMAILIO.ctl, ...args], { timeoutMs: 10_000 });

/** Fails (never skips) when Kamailio or sipp is not there, saying how to start it. */
export async function requireKamailio(): Promise<void> {
  const up = await kamcmd('core.uptime');
  if (up.code !== 0)
    throw new Error(`Kamailio does not answer on its control socket ${KAMAILIO.ctl}: ${HOW_TO_START_KAMAILIO}`);
  const sipp = await run('sipp', ['-v'], { timeoutMs: 5_000 });
  if (!/SIPp/i.test(sipp.output)) throw new Error(`sipp is missing: ${HOW_TO_START_KAMAILIO}`);
}

/** A UDP port free on the loopback address, for a phone (sipp) to bind. */
export async function freeUdpPort(): Promise<number> {
  const s = createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', r));
  const { port } = s.address();
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

export const scenario = (name: string) => fileURLToPath(new URL(`./sipp/${name}.xml`, import.meta.url));

/**
 * A phone (sipp) registering once from 127.0.0.1:<port>: `register` expects 200, `register-refused`
 * the challenge then 403. sipp's exit code is 0 when the scenario went as written.
 */
export function register(
  which: 'register' | 'register-refused',
  o: { username: string; password: string; domain: string; port: number; userAgent: string; expires?: number },
): Promise<Run> {
  return run(
    'sipp',
    [
      `${KAMAILIO.host}:${KAMAILIO.sipPort}`,
      '-sf',
      scenario(which),
      '-m',
      '1',
      '-i',
      KAMAILIO.host,
      '-p',
      String(o.port),
      '-s',
      o.username,
      '-au',
      o.username,
      '-ap',
      o.password,
      '-key',
      'domain',
      o.domain,
      '-key',
      'expires',
      String(o.expires ?? 3600),
      '-key',
      'ua',
      o.userAgent,
      '-timeout',
      '10s',
      '-timeout_error',
      '-nostdin',
    ],
    { timeoutMs: 15_000 },
  );
}

/**
 * A phone at 127.0.0.1:<port> waiting for one NOTIFY and answering 200 (sipp drops requests of
 * unknown calls, so the registering sipp cannot receive it): the messages are traced to `messages`.
 * Give it a moment to bind its port before the NOTIFY is sent (Kamailio retransmits anyway).
 */
export function awaitNotify(port: number, messages: string, cwd: string): Promise<Run> {
  return run(
    'sipp',
    [
      '-sf',
      scenario('notify-uas'),
      '-m',
      '1',
      '-i',
      '127.0.0.1',
      '-p',
      String(port),
      '-timeout',
      '10s',
      '-timeout_error',
      '-nostdin',
      '-trace_msg',
      '-message_file',
      messages,
    ],
    { timeoutMs: 15_000, cwd },
  );
}
