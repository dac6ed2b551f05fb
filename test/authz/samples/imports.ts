// Sample requests of the bulk import (document 3, Bulk import of users and devices; route table,
// Bulk import; issue 27, point 10), for the authorisation matrix and the tenant isolation test
// (see ./types.ts).
//
// - The checks, imports, lists, template and createReportForCommand target a company named in the
//   query (`companyId`, the caller's own when absent): the sample names the target there. The CSV
//   goes raw (`text/csv`), as the SDK sends it. An import's reqId is the hash of its data for the
//   company and the same data is refused (409) until its report is deleted: each case's CSV names
//   a login of its own (ctx.n). The voice routes need a CloudPBX in the company: one is made for it
//   (through the API, as superadmin) when it has none.
// - The reports target an import request (kind importRequest), the commandId reads its row of
//   import_commands (kind importCommand); the matrix inserts both. A commandId's reads need a
//   result of their kind: the sample records one on the row (a check report, an import of the
//   same company) before the request.
import { eq } from 'drizzle-orm';
import { newId } from '../../../src/shared/ids.ts';
import { importCommands, imports } from '../../../src/modules/imports/imports.tables.ts';
import { cloudPbxOfCompany } from '../../../src/modules/pbx/pbx.api.ts';
import { createPbx } from '../../pbx/fixtures.ts';
import type { Ctx, Req, Sample, TestApp } from './types.ts';

const M = '/api/svc/massprovisioning/v1.0';
const CSV = { 'content-type': 'text/csv; charset=utf-8' };
/** Cases of two runs (the matrix, the isolation test) never share a CSV or a commandId. */
const RUN = newId().slice(-8);

const userCsv = (ctx: Ctx) => `loginEmail;firstName;lastName\nmatrix-${RUN}-${ctx.n}@import.test;Matrix;Case${ctx.n}\n`;
const voiceCsv = (ctx: Ctx) => `loginEmail;shortNumber\nmatrix-${RUN}-${ctx.n}@import.test;\n`;

/** A CloudPBX in the company (the voice routes refuse a company without one: 400905), made once per application. */
const pbxMade = new WeakMap<TestApp, Map<string, Promise<void>>>();
function withCloudPbx(ctx: Ctx, companyId: string): Promise<void> {
  let made = pbxMade.get(ctx.t);
  if (!made) pbxMade.set(ctx.t, (made = new Map()));
  let p = made.get(companyId);
  if (!p) {
    p = (async () => {
      if (await cloudPbxOfCompany(ctx.t.db, companyId)) return;
      await createPbx(ctx.t, companyId, { name: `Matrix import PBX ${ctx.n}` });
    })();
    made.set(companyId, p);
  }
  return p;
}

/** A POST of a CSV into company `id` (query companyId). */
const csvInto =
  (path: string, csv: (ctx: Ctx) => string, voice = false) =>
  async (id: string, ctx: Ctx): Promise<Req> => {
    if (voice) await withCloudPbx(ctx, id);
    return { method: 'POST', url: `${M}${path}?companyId=${id}&label=matrix`, headers: CSV, payload: csv(ctx) };
  };

const onCompany = (request: (id: string, ctx: Ctx) => Req | Promise<Req>, fresh = false): Sample => ({
  type: 'target',
  kind: 'company',
  fresh,
  request,
});

/** A check report as a check with a commandId records it (CheckReport). */
const CHECK_REPORT = {
  reqId: 'matrix',
  mode: 'user',
  actions: { upsert: 1 },
  columns: 1,
  delimiter: ';',
  ignoredColumns: [],
  profiles: [],
  total: 1,
  valid: 1,
  errors: [],
};

/** The commandId's row given a result of each kind: a check report, and an import of its company. */
async function withResults(ctx: Ctx, commandId: string): Promise<void> {
  const [row] = await ctx.t.db.select().from(importCommands).where(eq(importCommands.id, commandId));
  if (!row) return; // an id of nothing: the request answers 404 anyway
  if (row.checkReport && row.reqId) return;
  const reqId = newId();
  await ctx.t.db.insert(imports).values({
    id: reqId,
    companyId: row.companyId,
    userId: row.userId,
    displayName: 'Matrix',
    route: 'import',
    mode: 'user',
    status: 'Terminated',
    options: { delimiter: ';', comment: '%', noemails: false, nostrict: false },
    commandId,
    startTime: new Date(),
  });
  await ctx.t.db
    .update(importCommands)
    .set({ checkReport: row.checkReport ?? CHECK_REPORT, reqId: row.reqId ?? reqId })
    .where(eq(importCommands.id, commandId));
}

const onCommand = (suffix: string): Sample => ({
  type: 'target',
  kind: 'importCommand',
  fresh: false,
  request: async (id, ctx): Promise<Req> => {
    await withResults(ctx, id);
    return { method: 'GET', url: `${M}/users/imports/synchronize${suffix}/${encodeURIComponent(id)}/report` };
  },
});

export const importsSamples: Record<string, Sample> = {
  checkCsv: onCompany(csvInto('/users/imports/check', userCsv)),
  checkCsvForSync: onCompany(csvInto('/users/imports/synchronize/check', userCsv)),
  checkVoiceCsv: onCompany(csvInto('/users/imports/voice/check', voiceCsv, true)),
  importCsv: onCompany(csvInto('/users/imports', userCsv)),
  syncCsv: onCompany(csvInto('/users/imports/synchronize', userCsv)),
  importVoiceCsv: onCompany(csvInto('/users/imports/voice', voiceCsv, true)),
  createReportForCommand: onCompany((id, ctx): Req => ({
    method: 'POST',
    url: `${M}/users/imports/synchronize/matrix-${RUN}-${ctx.n}/report?companyId=${id}`,
    payload: { details: 'nothing to do', status: 'success' },
  })),
  listImports: onCompany((id): Req => ({ method: 'GET', url: `${M}/users/imports?companyId=${id}` })),
  listCompanyImports: onCompany((id): Req => ({ method: 'GET', url: `${M}/companies/${id}/imports` })),
  getCsvTemplate: onCompany((id): Req => ({
    method: 'GET',
    url: `${M}/users/template?companyId=${id}&mode=useranddevice`,
    headers: { accept: 'text/csv' },
  })),
  exportUsersCsv: onCompany((id): Req => ({ method: 'GET', url: `${M}/companies/${id}/users/export` })),
  getImportReport: {
    type: 'target',
    kind: 'importRequest',
    fresh: false,
    request: (id): Req => ({ method: 'GET', url: `${M}/users/imports/${id}/details?format=full` }),
  },
  deleteImportReport: {
    type: 'target',
    kind: 'importRequest',
    fresh: true,
    // The SDK sends a JSON body with its DELETE (issue 27, point 9).
    request: (id): Req => ({ method: 'DELETE', url: `${M}/users/imports/${id}/details`, payload: {} }),
  },
  getCheckReportForCommand: onCommand('/check'),
  getImportReportForCommand: onCommand(''),
};
