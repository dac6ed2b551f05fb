// The Prosody of the end-to-end tests: where it listens and how to drive it. .ci/run starts it
// with .ci/prosody/prosody.cfg.lua and exports these variables; the defaults are that file's.
import { execFile } from 'node:child_process';
import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { client, xml, type Client } from '@xmpp/client';
import type { Element } from '@xmpp/xml';
import { loadConfig, type Config } from '../../src/config.ts';

const run = promisify(execFile);

export const PROSODY = {
  config:
    process.env.E2E_PROSODY_CONFIG ?? fileURLToPath(new URL('../../.ci/prosody/prosody.cfg.lua', import.meta.url)),
  host: '127.0.0.1',
  c2sPort: Number(process.env.E2E_XMPP_C2S_PORT ?? 15222),
  componentPort: Number(process.env.E2E_XMPP_COMPONENT_PORT ?? 15347),
  componentDomain: process.env.E2E_XMPP_COMPONENT_DOMAIN ?? 'svc.localhost',
  componentSecret: process.env.E2E_XMPP_COMPONENT_SECRET ?? 'svc-ci-component-secret',
  userDomain: process.env.E2E_XMPP_USER_DOMAIN ?? 'localhost',
};

/**
 * The service's settings for a test on this Prosody: its component connection, the given
 * accounts mode (`prosodyctl`: the service makes accounts itself) and a quick outbox.
 */
export function serviceConfigOnProsody(o: { accounts: 'none' | 'prosodyctl'; requestTimeoutMs?: number }): Config {
  const xmpp: Config['xmpp'] = {
    componentUrl: `xmpp://${PROSODY.host}:${PROSODY.componentPort}`,
    componentDomain: PROSODY.componentDomain,
    componentSecret: PROSODY.componentSecret,
    userDomain: PROSODY.userDomain,
    requestTimeoutMs: o.requestTimeoutMs ?? 5000,
    gatewaySimulator: 'ack',
    gatewaySimulatorDelayMs: 0,
    accounts: o.accounts,
    prosodyctlConfig: o.accounts === 'prosodyctl' ? PROSODY.config : undefined,
  };
  return { ...loadConfig({}), xmpp, outboxPollMs: 50 };
}

export const HOW_TO_START = `start it with: SVC_PROSODY_DATA=/tmp/svc-prosody prosodyctl --config ${PROSODY.config} start (Debian package prosody; bash .ci/run installs and starts it)`;

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: PROSODY.host, port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/** Fails (never skips) when Prosody is not there, saying how to start it. */
export async function requireProsody(): Promise<void> {
  for (const port of [PROSODY.c2sPort, PROSODY.componentPort]) {
    if (!(await portOpen(port)))
      throw new Error(`Prosody is not reachable on ${PROSODY.host}:${port}: ${HOW_TO_START}`);
  }
}

async function prosodyctl(...args: string[]): Promise<string> {
  const { stdout } = await run('prosodyctl', ['--config', PROSODY.config, ...args], { env: process.env });
  return stdout;
}

export async function registerAccount(localpart: string, password: string): Promise<void> {
  await prosodyctl('register', localpart, PROSODY.userDomain, password);
}

async function waitPort(port: number, open: boolean): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if ((await portOpen(port)) === open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`port ${port} did not ${open ? 'open' : 'close'}`);
}

export async function stopProsody(): Promise<void> {
  await prosodyctl('stop').catch(() => undefined);
  await waitPort(PROSODY.c2sPort, false);
}

export async function startProsody(): Promise<void> {
  await prosodyctl('start').catch(() => undefined);
  await waitPort(PROSODY.c2sPort, true);
  await waitPort(PROSODY.componentPort, true);
}

export interface TestClient {
  xmpp: Client;
  /** Every stanza received, in order. */
  received: Element[];
  waitFor(pred: (el: Element) => boolean, timeoutMs?: number): Promise<Element>;
  stop(): Promise<void>;
}

/** A user logged in over c2s, available (so that messages reach it and offline ones are replayed). */
export async function loginClient(
  localpart: string,
  password: string,
  resource = 'e2e',
  onIq?: (iq: Element, c: Client) => void,
): Promise<TestClient> {
  const xmpp = client({
    service: `xmpp://${PROSODY.host}:${PROSODY.c2sPort}`,
    domain: PROSODY.userDomain,
    username: localpart,
    password,
    resource,
  });
  const received: Element[] = [];
  xmpp.on('error', () => undefined);
  xmpp.on('stanza', (el: Element) => {
    received.push(el);
    if (onIq && el.is('iq') && (el.attrs.type === 'get' || el.attrs.type === 'set')) onIq(el, xmpp);
  });
  // A gateway answers (or not) by itself: without a handler, xmpp.js would answer every request
  // with an error at once, and a gateway that never answers could not be played.
  if (onIq) xmpp.iqCallee.set('urn:xmpp:pbxagent:config:1', 'config', () => new Promise(() => undefined));
  xmpp.on('online', () => void xmpp.send(xml('presence')).catch(() => undefined));
  xmpp.reconnect.delay = 300;
  await xmpp.start();
  return {
    xmpp,
    received,
    async waitFor(pred, timeoutMs = 10_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const hit = received.find(pred);
        if (hit) return hit;
        if (Date.now() > end)
          throw new Error(
            `no matching stanza within ${timeoutMs} ms; received: ${received.map((e) => e.toString()).join('\n')}`,
          );
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async stop() {
      xmpp.reconnect.stop();
      await xmpp.stop().catch(() => undefined);
    },
  };
}

export { xml };

/**
 * The end-to-end files share one Prosody and one component address (a second component
 * connection on it only stands by), and one of them stops and restarts Prosody: run in parallel
 * (npm test runs two files at once) they would take each other's connection. Each file holds
 * this lock, a file naming its process, from its first hook to its last; a lock left by a
 * process that is gone is taken over.
 */
export async function holdProsody(waitMs = 15 * 60_000): Promise<() => void> {
  const path = join(tmpdir(), `svc-e2e-prosody-${PROSODY.c2sPort}.lock`);
  for (const end = Date.now() + waitMs; ;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8') === String(process.pid)) unlinkSync(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(path, 'utf8'));
    } catch {
      continue; // released meanwhile
    }
    if (!alive(holder)) {
      try {
        unlinkSync(path);
      } catch {
        // taken over by another waiter
      }
      continue;
    }
    if (Date.now() > end)
      throw new Error(`another end-to-end test (process ${holder}) has held Prosody for ${waitMs / 1000} s (${path})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
