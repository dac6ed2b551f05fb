// Issue 24, point 5: an operation that declares `rowAt` reads, at those format levels, only the
// named columns of its target (src/http/operation.ts, TargetRef.rowAt). What that must never
// change is the answer: at each such level it is exactly the projection of the whole answer to
// the level (docs/formats.md), for every caller and every kind of row, and it comes from the
// narrow statement. A column left out of a declaration makes a field vanish and fails here.
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { eq } from 'drizzle-orm';
import { expect } from '../support/expect.ts';
import { bearer, createTestApp, type TestApp } from '../support/harness.ts';
import { makeCompany, makeUser } from '../support/factories.ts';
import { readWithStatements } from '../support/statements.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { OPERATIONS } from '../../src/modules/index.ts';
import { project, type FormatLevel } from '../../src/http/format.ts';

const A = '/api/svc/admin/v1.0';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function read(url: string, token: string): Promise<{ body: Record<string, unknown>; seen: string }> {
  const { statements, body } = await readWithStatements(t, url, token);
  return { body, seen: statements.join(' ') };
}

/** The operations declaring rowAt, each with the URLs and tokens of the rows it is checked on. */
async function cases(): Promise<Record<string, { urls: string[]; tokens: string[] }>> {
  // Companies of every shape the levels show: a BP with its type, an End Customer under it with a
  // state and references, a company with a name that is not plain Latin, on hold.
  const bp = await makeCompany(t, { name: 'Row At BP', isBP: true, bpType: 'VAD' });
  const ec = await makeCompany(t, { name: 'Écoles Row At', bpId: bp });
  await t.db
    .update(companies)
    .set({
      country: 'USA',
      state: 'NY',
      externalReference: 'ext-1',
      crmAccountId: 'crm-1',
      visibility: 'public',
      offerType: 'premium',
    })
    .where(eq(companies.id, ec));
  const other = await makeCompany(t, { name: 'Ölçü Row At', status: 'hold' });
  await t.db.update(companies).set({ country: 'TUR' }).where(eq(companies.id, other));
  const bpAdmin = await makeUser(t, bp, ['bp_admin']);
  const ecAdmin = await makeUser(t, ec, ['company_admin']);
  return {
    getCompany: {
      urls: [bp, ec, other].map((id) => `${A}/companies/${id}`),
      tokens: [t.superToken, bpAdmin.token, ecAdmin.token],
    },
  };
}

describe('issue 24, point 5: a level read from a few columns answers what the whole row answers', () => {
  it('every operation declaring rowAt: at each of its levels, the projection of the full answer, from the narrow statement', async () => {
    const declared = OPERATIONS.filter((op) => op.target?.rowAt);
    const byOp = await cases();
    // A new declaration needs its rows here.
    expect(declared.map((op) => op.operationId).sort()).toEqual(Object.keys(byOp).sort());
    let compared = 0;
    for (const op of declared) {
      const levels = Object.keys(op.target!.rowAt!) as FormatLevel[];
      for (const url of byOp[op.operationId].urls)
        for (const token of byOp[op.operationId].tokens) {
          const full = await t.inject({ method: 'GET', url: `${url}?format=full`, headers: bearer(token) });
          if (full.statusCode !== 200) continue;
          for (const level of levels) {
            const { body, seen } = await read(`${url}?format=${level}`, token);
            expect(seen).toContain(`target_${op.operationId}_`);
            expect(seen).toContain(`_${level}_`);
            expect(body).toEqual(project(full.json().data, op.formats!, level));
            compared++;
          }
        }
    }
    // Every company read by at least the superadmin, at both levels.
    expect(compared).toBeGreaterThanOrEqual(6);
  });

  it('getCompany without a format answers its default level from the narrow statement', async () => {
    const id = await makeCompany(t, { name: 'Row At Default' });
    const { body, seen } = await read(`${A}/companies/${id}`, t.superToken);
    expect(seen).toContain('target_getCompany_lean_small_');
    expect(body).toEqual({ id, name: 'Row At Default' });
  });
});
