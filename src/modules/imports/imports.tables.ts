// Tables of the bulk import (document 3, Bulk import of users and devices; issue 27).
// drizzle-kit reads every *.tables.ts (drizzle.config.ts) for the one migration folder.
import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';
import { companies } from '../admin/companies/companies.tables.ts';
import type { Static } from 'typebox';
import type { ReportEntry } from './imports.schemas.ts';

/** One line's entry of the report (document 3, Import report). */
export type ReportEntryValue = Static<typeof ReportEntry>;

/** What an import was asked to do: the route that started it (importCsv, syncCsv, importVoiceCsv). */
export type ImportRoute = 'import' | 'sync' | 'voice';
export type ImportMode = 'user' | 'device' | 'useranddevice' | 'voice';
export type ImportStatus = 'Pending' | 'Terminated';

/** The options of an import request, kept for its job (query parameters of document 3 and the SDK). */
export interface ImportOptions {
  delimiter: string;
  comment: string;
  noemails: boolean;
  nostrict: boolean;
}

/**
 * One import request (document 3, Import request summary). `reqId` is the hash of the CSV data
 * for the company (rule 1: the same data cannot be imported twice until its report is deleted:
 * the primary key refuses the second). The CSV itself is kept in the files port under `fileKey`
 * until the import ends, so that a service killed in the middle resumes it: the lines whose work
 * committed are those with a report (import_lines), written in the same transaction as that work.
 */
export const imports = pgTable(
  'imports',
  {
    // Named id as every kind's key is: the authorising statement joins on it (src/authz/resolve.ts).
    id: text('id').primaryKey(),
    companyId: text('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    // The administrator who asked: the job acts for him (src/http/run-command.ts).
    userId: text('user_id').notNull(),
    displayName: text('display_name').notNull(),
    label: text('label'),
    route: text('route').$type<ImportRoute>().notNull(),
    mode: text('mode').$type<ImportMode>().notNull(),
    status: text('status').$type<ImportStatus>().notNull().default('Pending'),
    options: jsonb('options').$type<ImportOptions>().notNull(),
    commandId: text('command_id'),
    fileKey: text('file_key'),
    startTime: ts('start_time').notNull(),
    endTime: ts('end_time'),
    succeeded: integer('succeeded').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    warnings: integer('warnings').notNull().default(0),
    total: integer('total').notNull().default(0),
  },
  (t) => [index('imports_company_idx').on(t.companyId, t.startTime)],
);

/**
 * The report of one CSV line of an import (document 3, Import report): its entry (status, action,
 * `_user`, `userId`, `profiles`, the sub-reports), and, for a failing line, the line's own text
 * (`failingLines`). Written in the transaction of the line's work.
 */
export const importLines = pgTable(
  'import_lines',
  {
    // An import's, deleted with it: migration 0036_keys_checked_as_sets (docs/decisions.md, Keys checked as sets).
    reqId: text('req_id').notNull(),
    line: integer('line').notNull(),
    login: text('login').notNull(),
    status: text('status').$type<'succeeded' | 'failed'>().notNull(),
    entry: jsonb('entry').$type<ReportEntryValue>().notNull(),
    raw: text('raw'),
  },
  (t) => [primaryKey({ columns: [t.reqId, t.line] })],
);

/**
 * The last results of a commandId (document 3: a check or import started with a commandId on
 * behalf of an administrator keeps its last result; createReportForCommand records one when no
 * operation ran).
 */
export const importCommands = pgTable('import_commands', {
  id: text('id').primaryKey(),
  companyId: text('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' }),
  userId: text('user_id').notNull(),
  checkReport: jsonb('check_report').$type<Record<string, unknown>>(),
  reqId: text('req_id'),
  report: jsonb('report').$type<{ details: string; status: 'success' | 'failure' }>(),
  updatedAt: ts('updated_at').notNull(),
});
