// The bulk import's operations (route table, Bulk import: M = /massprovisioning/v1.0; document 3,
// Bulk import of users and devices; issue 27). CSV bodies come raw (`text/csv`); every parameter
// is in the query, as the original SDK sends them.
import { Type } from 'typebox';
import { defineOperation, type AnyOperation } from '../../http/operation.ts';
import { Binary } from '../../http/binary.ts';
import { parseOptionalPage } from '../../http/paging.ts';
import type { RawMedia } from '../../http/media.ts';
import {
  CheckReport,
  CommandCheckAnswer,
  CommandImportAnswer,
  CommandParams,
  CommandReportAnswer,
  CommandReportBody,
  CompanyParams,
  CompanyQuery,
  Deleted,
  ImportQuery,
  ImportReport,
  ImportStarted,
  ImportList,
  ListImportsQuery,
  PageQuery,
  ReportQuery,
  ReqIdParams,
  TemplateQuery,
} from './imports.schemas.ts';
import * as checks from './checks.service.ts';
import * as service from './imports.service.ts';
import * as commands from './commands.service.ts';
import * as templates from './templates.service.ts';

const M = '/massprovisioning/v1.0';
const tag = 'Bulk import';

/**
 * The raw CSV. The declared ceiling is only the transport's; the limit that holds is the
 * IMPORT_MAX_BYTES setting, checked while the body streams in (413 before it is read whole).
 */
const CSV_UPLOAD: RawMedia = {
  types: ['text/csv', 'text/plain', 'application/octet-stream'],
  maxBytes: 2 * 1024 * 1024 * 1024,
  stream: true,
  description: 'the CSV, UTF-8 (a BOM accepted); at most IMPORT_MAX_BYTES (default 50 MB)',
};

const intoCompany = { kind: 'company', from: 'query', field: 'companyId', fallback: 'companyId' } as const;
const csvErrors = [
  'CSV_NOT_UTF8',
  'CSV_NO_HEADER',
  'CSV_NO_KNOWN_COLUMN',
  'CSV_BAD_DELIMITER',
  'BODY_TOO_LARGE',
] as const;
const queryWords =
  'Every parameter is in the query: companyId (default your company), delimiter (detected from the header when absent), comment (default %), label, commandId, noemails, nostrict.';

const check = (operationId: string, path: string, route: checks.CheckRoute, summary: string) =>
  defineOperation({
    operationId,
    method: 'POST',
    path,
    tag,
    summary,
    description: `A dry run: every line is read and judged as the import would, nothing is written. ${queryWords}`,
    query: ImportQuery,
    media: { json: false, raw: [CSV_UPLOAD] },
    response: CheckReport,
    envelope: 'data',
    successStatus: 200,
    target: intoCompany,
    errors: [...csvErrors, 'CSV_MODE_MISMATCH', 'IMPORT_NO_CLOUDPBX'],
    command: (cmd, { query, upload }) => checks.checkCsv(cmd, route, query, upload),
  });

export const checkCsv = check('checkCsv', `${M}/users/imports/check`, 'check', 'Check a CSV of users and devices');
export const checkCsvForSync = check(
  'checkCsvForSync',
  `${M}/users/imports/synchronize/check`,
  'checkSync',
  'Check a CSV for a synchronisation (empty cells clear, lines default to sync)',
);
export const checkVoiceCsv = check(
  'checkVoiceCsv',
  `${M}/users/imports/voice/check`,
  'checkVoice',
  "Check a CSV of the voice mode (the company's CloudPBX subscribers, DDI numbers and SIP devices)",
);

const start = (operationId: string, path: string, route: service.StartRoute, summary: string) =>
  defineOperation({
    operationId,
    method: 'POST',
    path,
    tag,
    summary,
    description:
      `Answers at once (202): the work runs as a job; read its progress and report with getImportReport. ` +
      `reqId is the hash of the CSV data for the company: the same data again is 409900 until its report is deleted. ${queryWords}`,
    query: ImportQuery,
    media: { json: false, raw: [CSV_UPLOAD] },
    response: ImportStarted,
    envelope: 'data',
    successStatus: 202,
    target: intoCompany,
    errors: [...csvErrors, 'CSV_MODE_MISMATCH', 'IMPORT_NO_CLOUDPBX', 'IMPORT_ALREADY_EXISTS'],
    command: (cmd, { query, upload }) => service.startImport(cmd, route, query, upload),
  });

export const importCsv = start('importCsv', `${M}/users/imports`, 'import', 'Import a CSV of users and devices');
export const syncCsv = start(
  'syncCsv',
  `${M}/users/imports/synchronize`,
  'sync',
  'Synchronise users and devices with a CSV (empty cells clear, lines default to sync)',
);
export const importVoiceCsv = start(
  'importVoiceCsv',
  `${M}/users/imports/voice`,
  'voice',
  "Import a CSV of the voice mode (the company's CloudPBX subscribers, DDI numbers and SIP devices)",
);

const ofCommand = { kind: 'importCommand', from: 'params', field: 'commandId' } as const;

export const getCheckReportForCommand = defineOperation({
  operationId: 'getCheckReportForCommand',
  method: 'GET',
  path: `${M}/users/imports/synchronize/check/:commandId/report`,
  tag,
  summary: 'The last check result of a commandId',
  params: CommandParams,
  response: CommandCheckAnswer,
  envelope: 'plain',
  target: ofCommand,
  errors: ['COMMAND_REPORT_NOT_FOUND'],
  command: (cmd) => commands.checkReportOf(cmd.target),
});

export const getImportReportForCommand = defineOperation({
  operationId: 'getImportReportForCommand',
  method: 'GET',
  path: `${M}/users/imports/synchronize/:commandId/report`,
  tag,
  summary: 'The last import result of a commandId (its summary)',
  params: CommandParams,
  response: CommandImportAnswer,
  envelope: 'plain',
  target: ofCommand,
  errors: ['COMMAND_REPORT_NOT_FOUND'],
  command: (cmd) => commands.importReportOf(cmd.db, cmd.target),
});

export const createReportForCommand = defineOperation({
  operationId: 'createReportForCommand',
  method: 'POST',
  path: `${M}/users/imports/synchronize/:commandId/report`,
  tag,
  summary: 'Record the result of a commandId when no check or import ran',
  description: 'Sends command_ended (document 1) to you, as an import with this commandId would.',
  params: CommandParams,
  query: CompanyQuery,
  body: CommandReportBody,
  response: CommandReportAnswer,
  envelope: 'plain',
  successStatus: 201,
  target: intoCompany,
  command: (cmd, { params, body }) => commands.createReport(cmd, params.commandId, body),
});

export const listImports = defineOperation({
  operationId: 'listImports',
  method: 'GET',
  path: `${M}/users/imports`,
  tag,
  summary: "List a company's imports (query companyId, default yours), the latest first",
  description: '(+) limit or offset: a page, with the total of the imports (issue 28, point 9).',
  query: ListImportsQuery,
  response: ImportList,
  envelope: 'plain',
  target: intoCompany,
  command: (cmd, { query }) => service.listImports(cmd.db, cmd.target.id, parseOptionalPage(query)),
});

export const listCompanyImports = defineOperation({
  operationId: 'listCompanyImports',
  method: 'GET',
  path: `${M}/companies/:companyId/imports`,
  tag,
  summary: "List a company's imports, the latest first",
  description: '(+) limit or offset: a page, with the total of the imports (issue 28, point 9).',
  params: CompanyParams,
  query: PageQuery,
  response: ImportList,
  envelope: 'plain',
  target: { kind: 'company', from: 'params', field: 'companyId' },
  command: (cmd, { query }) => service.listImports(cmd.db, cmd.target.id, parseOptionalPage(query)),
});

const ofReport = { kind: 'importRequest', from: 'params', field: 'reqId' } as const;

export const getImportReport = defineOperation({
  operationId: 'getImportReport',
  method: 'GET',
  path: `${M}/users/imports/:reqId/details`,
  tag,
  summary: 'The report of an import: its counters while it runs, every line once it ends',
  description:
    'format=full (default): the summary, the report per login and the failing lines; format=small: the summary. ' +
    '(+) status: only the lines of that status. (+) limit or offset: a page of the lines, in the order of the CSV, ' +
    'their failing lines, and reportTotal (the lines of that status, all pages).',
  params: ReqIdParams,
  query: ReportQuery,
  response: ImportReport,
  envelope: 'data',
  target: ofReport,
  command: (cmd, { query }) =>
    service.importReport(cmd.db, cmd.target, query.format ?? 'full', {
      page: parseOptionalPage(query),
      status: query.status,
    }),
});

export const deleteImportReport = defineOperation({
  operationId: 'deleteImportReport',
  method: 'DELETE',
  path: `${M}/users/imports/:reqId/details`,
  tag,
  summary: 'Delete the report of an import (the same CSV may then be imported again)',
  description: 'A running import is stopped at its next batch; what it committed stays.',
  params: ReqIdParams,
  response: Deleted,
  envelope: 'data',
  target: ofReport,
  command: (cmd) => service.deleteReport(cmd.db, cmd.deps.ports.files, cmd.target),
});

export const getCsvTemplate = defineOperation({
  operationId: 'getCsvTemplate',
  method: 'GET',
  path: `${M}/users/template`,
  tag,
  summary: 'The CSV template of a mode (user default, device, useranddevice, voice)',
  description: 'comment=true: the template with its comment lines describing each column.',
  query: TemplateQuery,
  response: Binary({ types: ['text/csv'], description: 'the CSV template, as an attachment' }),
  envelope: 'binary',
  target: intoCompany,
  command: (cmd, { query }) => templates.template(cmd, query),
});

export const exportUsersCsv = defineOperation({
  operationId: 'exportUsersCsv',
  method: 'GET',
  path: `${M}/companies/:companyId/users/export`,
  tag,
  summary: "(+) The company's users as a CSV of the template's format: synchronised back, it changes nothing",
  params: CompanyParams,
  query: Type.Object({ mode: Type.Optional(TemplateQuery.properties.mode) }),
  response: Binary({ types: ['text/csv'], description: 'the CSV, as an attachment' }),
  envelope: 'binary',
  target: { kind: 'company', from: 'params', field: 'companyId' },
  command: (cmd, { query }) => templates.exportUsers(cmd, query),
});

export const importsOperations: AnyOperation[] = [
  checkCsv,
  checkCsvForSync,
  getCheckReportForCommand,
  importCsv,
  syncCsv,
  importVoiceCsv,
  checkVoiceCsv,
  getImportReportForCommand,
  createReportForCommand,
  listImports,
  listCompanyImports,
  getImportReport,
  deleteImportReport,
  getCsvTemplate,
  exportUsersCsv,
];
