// What the tests of telephone systems share: an application whose background (job queue, XMPP
// log transport with the embedded gateway simulator) logs to a captured log, and the world of a
// BP with End Customers, an organisation's company and an unrelated company.
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../support/harness.ts';
import { captureLog, type CapturedLog } from '../support/log-capture.ts';
import { makeCompany, makeSite, makeUser, type MadeUser } from '../support/factories.ts';
import { createBackground, type Background } from '../../src/background.ts';
import { MODULE_WORK } from '../../src/modules/index.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';

export const A = '/api/svc/admin/v1.0';
export const SYSTEMS = `${A}/systems`;

export interface SystemsWorld {
  t: TestApp;
  bg: Background;
  gatewayLog: CapturedLog;
  /** The iq requests sent to gateways, in order. */
  sent: { to: string; stanza: string }[];
  bp: string;
  ec1: string;
  ec2: string;
  site1: string;
  site1b: string;
  site2: string;
  bpAdmin: MadeUser;
  ec1Admin: MadeUser;
  ec2Admin: MadeUser;
  siteAdmin: MadeUser;
}

/** XMPP_REQUEST_TIMEOUT_MS of these tests: short, so that a silent gateway gives 504 quickly. */
export const TIMEOUT_MS = 300;

export async function systemsWorld(appLog?: CapturedLog): Promise<SystemsWorld> {
  const base = loadConfig({});
  const config: Partial<Config> = { xmpp: { ...base.xmpp, requestTimeoutMs: TIMEOUT_MS } };
  const t = await createTestApp({
    config,
    build: appLog
      ? { logger: { level: 'debug', stream: { write: (l: string) => appLog.lines.push(JSON.parse(l)) } } }
      : undefined,
  });
  // The background as main.ts makes it, logging to a captured log (the simulator's iq and answers).
  const gatewayLog = captureLog();
  const bg = createBackground({
    database: t.deps.database,
    modules: MODULE_WORK,
    config: t.deps.config,
    now: t.clock.now,
    log: gatewayLog.log,
    countersEverySeconds: 0,
  });
  await bg.start();
  // What the gateways are sent, as the transport receives it (the log masks the secrets).
  const sent: { to: string; stanza: string }[] = [];
  const request = bg.xmpp.request.bind(bg.xmpp);
  bg.xmpp.request = (to, iq, opts) => {
    sent.push({ to, stanza: iq.toString() });
    return request(to, iq, opts);
  };
  t.deps.background = bg;
  const bp = await makeCompany(t, { isBP: true, bpType: 'DR' });
  const ec1 = await makeCompany(t, { bpId: bp });
  const ec2 = await makeCompany(t, { bpId: bp });
  const site1 = await makeSite(t, ec1);
  const site1b = await makeSite(t, ec1);
  const site2 = await makeSite(t, ec2);
  return {
    t,
    bg,
    gatewayLog,
    sent,
    bp,
    ec1,
    ec2,
    site1,
    site1b,
    site2,
    bpAdmin: await makeUser(t, bp, ['bp_admin']),
    ec1Admin: await makeUser(t, ec1, ['company_admin']),
    ec2Admin: await makeUser(t, ec2, ['company_admin']),
    siteAdmin: await makeUser(t, ec1, ['site_admin'], { siteId: site1 }),
  };
}

export async function setCentrex(
  t: TestApp,
  companyId: string,
  companyCallNumber: string | null = null,
): Promise<void> {
  await t.db.update(companies).set({ isCentrex: true, companyCallNumber }).where(eq(companies.id, companyId));
}

/** The iq stanzas the simulated gateways received, as XML text. */
export const receivedIqs = (w: SystemsWorld) =>
  w.gatewayLog.lines
    .filter((l) => l.msg === 'xmpp (gateway simulator): iq received')
    .map((l) => l.xmpp as { to: string; stanza: string });
