// What the bulk import's tests share: posting a CSV as the SDK does, waiting for an import's end.
import type { TestApp } from '../support/harness.ts';
import type { Executor } from '../../src/db/client.ts';
import { LineFailure, type LineWork } from '../../src/modules/imports/lines.ts';
import { bearer } from '../support/harness.ts';

export const M = '/api/svc/massprovisioning/v1.0';

/** POSTs a CSV raw (text/csv), every parameter in the query, as the original SDK does. */
export function postCsv(
  t: TestApp,
  token: string,
  path: string,
  csv: string | Buffer,
  query: Record<string, string> = {},
) {
  const qs = new URLSearchParams(query).toString();
  return t.inject({
    method: 'POST',
    url: `${M}${path}${qs ? `?${qs}` : ''}`,
    headers: { ...bearer(token), 'content-type': 'text/csv; charset=utf-8' },
    payload: csv,
  });
}

/** Polls the import's small report until it is Terminated (the job runs in the background). */
export async function waitForImport(t: TestApp, token: string, reqId: string, timeoutMs = 60_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.inject({
      method: 'GET',
      url: `${M}/users/imports/${reqId}/details?format=small`,
      headers: bearer(token),
    });
    if (res.statusCode !== 200) throw new Error(`report ${reqId}: ${res.statusCode} ${res.body}`);
    if (res.json().data.status === 'Terminated') return res.json().data;
    if (Date.now() > until) throw new Error(`import ${reqId} not terminated: ${res.body}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Imports a CSV and answers its full report once it ends. */
export async function importAndWait(
  t: TestApp,
  token: string,
  csv: string,
  query: Record<string, string> = {},
  path = '/users/imports',
) {
  const res = await postCsv(t, token, path, csv, query);
  if (res.statusCode !== 202) throw new Error(`import: ${res.statusCode} ${res.body}`);
  const reqId: string = res.json().data.reqId;
  await waitForImport(t, token, reqId);
  const full = await t.inject({ method: 'GET', url: `${M}/users/imports/${reqId}/details`, headers: bearer(token) });
  return full.json().data;
}

/** What running one line gave: its result or its error, and how many undo steps ran. */
export interface LineOutcome<T> {
  result?: T;
  error?: unknown;
  undone: number;
}

/**
 * One line as the engine runs it: a savepoint of a batch transaction; when the line throws, the
 * savepoint is rolled back and the undo steps run, last first, before the batch commits. A check
 * (dryRun) runs on the database itself. `after` may fail the line once its part is done.
 */
export async function runLineOn<T>(
  t: TestApp,
  o: { callerId: string; companyId: string; dryRun?: boolean; after?: () => void },
  fn: (work: LineWork) => Promise<T>,
): Promise<LineOutcome<T>> {
  const undos: (() => Promise<void>)[] = [];
  const out: LineOutcome<T> = { undone: 0 };
  const workOn = (tx: Executor): LineWork => ({
    tx,
    app: t.deps,
    callerId: o.callerId,
    companyId: o.companyId,
    now: t.deps.now(),
    log: t.app.log,
    dryRun: o.dryRun ?? false,
    onFailure: (u) => undos.push(u),
  });
  if (o.dryRun) {
    try {
      out.result = await fn(workOn(t.db));
    } catch (err) {
      out.error = err;
    }
    return out;
  }
  await t.db.transaction(async (batch) => {
    try {
      await batch.transaction(async (tx) => {
        out.result = await fn(workOn(tx));
        o.after?.();
      });
    } catch (err) {
      out.error = err;
      for (const u of undos.reverse()) await u();
      out.undone = undos.length;
    }
  });
  return out;
}

/** The LineFailure a line threw (the test fails otherwise). */
export const failureOf = (o: LineOutcome<unknown>): LineFailure => {
  if (!(o.error instanceof LineFailure)) throw new Error(`expected a LineFailure, got ${String(o.error)}`);
  return o.error;
};

const SYSTEMS = '/api/svc/admin/v1.0/systems';

/** A telephone system at the site, made by the superadmin (the device modes' PBX). */
export async function createSystemAt(t: TestApp, siteId: string, name: string): Promise<Record<string, any>> {
  const res = await t.inject({
    method: 'POST',
    url: SYSTEMS,
    headers: bearer(t.superToken),
    payload: { siteId, name },
  });
  if (res.statusCode !== 201) throw new Error(`createSystem: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** The phone numbers a system reports (createSystemPhoneNumbers), as made. */
export async function reportPhoneNumbers(
  t: TestApp,
  systemId: string,
  numbers: object[],
): Promise<Record<string, any>[]> {
  const res = await t.inject({
    method: 'POST',
    url: `${SYSTEMS}/${systemId}/phone-numbers`,
    headers: bearer(t.superToken),
    payload: { phoneNumbers: numbers },
  });
  if (res.statusCode !== 201) throw new Error(`createSystemPhoneNumbers: ${res.statusCode} ${res.body}`);
  return res.json().data;
}

/** Records every iq the service sends to a gateway (to, stanza), in order, and still sends it. */
export function recordGatewayRequests(t: TestApp, sent: { to: string; stanza: string }[]): void {
  const bg = t.deps.background;
  if (!bg) throw new Error('the test app has no background');
  const request = bg.xmpp.request.bind(bg.xmpp);
  bg.xmpp.request = (to, iq, opts) => {
    sent.push({ to, stanza: iq.toString() });
    return request(to, iq, opts);
  };
}
