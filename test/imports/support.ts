// What the bulk import's tests share: posting a CSV as the SDK does, waiting for an import's end.
import type { TestApp } from '../support/harness.ts';
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
