// CSV templates and the export of a company's users (document 3: "Get a CSV template: query
// companyId, mode, comment ... CSV content with headers Content-Type text/csv and
// Content-disposition"; issue 27, point 6: "an export of the company's users in the same format
// re-imports with sync and changes nothing"). The formats are README's "Templates and export".
import { open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Static } from 'typebox';
import { stringify, type Options } from 'csv-stringify/sync';
import type { CommandContext } from '../../http/context.ts';
import type { BinaryAnswer } from '../../http/binary.ts';
import { fail } from '../../errors/catalogue.ts';
import { newId } from '../../shared/ids.ts';
import { companyUsersPage, type ExportedUser } from '../admin/users/users.api.ts';
import { templateNamesByIds } from '../admin/customisation/customisation.api.ts';
import { extensionsOfUsers } from '../systems/systems.api.ts';
import { COLUMNS, TEMPLATE_COLUMNS } from './columns.ts';
import { DEFAULT_COMMENT } from './csv.ts';
import type { TemplateQuery } from './imports.schemas.ts';
import type { ImportMode } from './imports.tables.ts';

type CompanyRow = { id: string };

/**
 * How every CSV of this file is written: `,`, LF line ends, RFC 4180 quoting, and quotes also
 * around a value that holds the comment character (document 3: "a field value that contains it
 * must be wrapped in double quotes") or begins or ends with a space (the import trims unquoted
 * values), so that the import reads back exactly what was written.
 */
const CSV_OPTIONS: Options = {
  delimiter: ',',
  record_delimiter: '\n',
  quoted_match: [DEFAULT_COMMENT, /^\s|\s$/],
};

const csvLine = (cells: readonly string[]): string => stringify([cells], CSV_OPTIONS);

const isTrue = (v: boolean | string | undefined) => v === true || v === 'true';

/**
 * The comment lines of a template (comment=true): what the file is, each column with its
 * description, then an example line, each line starting with `% `; the header follows them.
 */
function commentLines(mode: ImportMode, columns: readonly string[]): string {
  const c = DEFAULT_COMMENT;
  const out = [
    `${c} CSV template of the bulk import, mode ${mode} (UTF-8; lines starting with ${c} are comments).`,
    `${c} Columns:`,
    ...columns.map((name) => `${c}   ${name}: ${COLUMNS[name].description}`),
    `${c} Example line:`,
    `${c} ${csvLine(columns.map((name) => COLUMNS[name].example)).replace(/\n$/, '')}`,
  ];
  return `${out.join('\n')}\n`;
}

/** getCsvTemplate: the header of the mode's columns (default mode `user`), preceded with comment=true by its comment lines. */
export async function template(
  _cmd: CommandContext<CompanyRow>,
  query: Static<typeof TemplateQuery>,
): Promise<BinaryAnswer> {
  const mode = query.mode ?? 'user';
  const columns = TEMPLATE_COLUMNS[mode];
  const text = (isTrue(query.comment) ? commentLines(mode, columns) : '') + csvLine(columns);
  return {
    mediaType: 'text/csv',
    fileName: `template-${mode}.csv`,
    disposition: 'attachment',
    body: Buffer.from(text, 'utf8'),
  };
}

// ---------------------------------------------------------------------------------------------
// The export.

/** Users read per statement: memory holds one page, whatever the company's size. */
export const EXPORT_PAGE = 1000;

const firstOf = <T>(list: readonly T[], pick: (x: T) => boolean): T | undefined => list.find(pick);

/** The cells of a user's line, by column name (every column of the user mode). */
function userCells(u: ExportedUser, templateName: string | undefined): Record<string, string> {
  const email0 = firstOf(u.emails, (e) => e.type === 'work')?.email;
  const phone = (deviceType: string) =>
    firstOf(u.phoneNumbers, (p) => p.type === 'work' && p.deviceType === deviceType)?.number;
  return {
    __action__: 'sync',
    loginEmail: u.loginEmail,
    // Never exported: an empty password cell changes no password (README, Templates and export).
    password: '',
    firstName: u.firstName,
    lastName: u.lastName,
    nickName: u.nickName ?? '',
    title: u.title ?? '',
    jobTitle: u.jobTitle ?? '',
    department: u.department ?? '',
    country: u.country ?? '',
    language: u.language ?? '',
    timezone: u.timezone ?? '',
    email0: email0 ?? '',
    businessPhone0: phone('landline') ?? '',
    mobilePhone0: phone('mobile') ?? '',
    selectedAppCustomisationTemplateName: templateName ?? '',
  };
}

/**
 * A file written page by page and read back from disk: the answer's memory is one page, not the
 * whole file. The file is unlinked as soon as it is open, so nothing is left behind whatever
 * happens to the request; its descriptor closes when the answer's stream ends.
 */
async function spooled(fileName: string, fill: (put: (text: string) => Promise<void>) => Promise<void>) {
  const path = join(tmpdir(), `svc-export-${newId()}.csv`);
  const fh = await open(path, 'w+', 0o600);
  await unlink(path);
  let size = 0;
  try {
    await fill(async (text) => {
      const bytes = Buffer.from(text, 'utf8');
      await fh.write(bytes, 0, bytes.length, size);
      size += bytes.length;
    });
  } catch (err) {
    await fh.close();
    throw err;
  }
  const answer: BinaryAnswer = {
    mediaType: 'text/csv',
    fileName,
    disposition: 'attachment',
    body: { size, open: (start, end) => fh.createReadStream({ start, end, autoClose: true }) },
  };
  return answer;
}

/**
 * exportUsersCsv (+): the company's users as a CSV of the template of the mode (default `user`),
 * one `sync` line per user in the order of their login, no password: synchronised back
 * (syncCsv), it changes nothing. The device modes carry the user's PBX extension (a phone number
 * of a telephone system assigned to him). The voice mode is not exported (400000).
 */
export async function exportUsers(
  cmd: CommandContext<CompanyRow>,
  query: { mode?: ImportMode },
): Promise<BinaryAnswer> {
  const mode = query.mode ?? 'user';
  if (mode === 'voice')
    fail('VALIDATION_FAILED', {
      field: 'mode',
      reason: 'the voice mode is not exported: use user, device or useranddevice',
    });
  const columns = TEMPLATE_COLUMNS[mode];
  const devices = mode === 'device' || mode === 'useranddevice';
  const companyId = cmd.target.id;
  return spooled(`users-${companyId}-${mode}.csv`, async (put) => {
    await put(csvLine(columns));
    let after: string | null = null;
    for (;;) {
      const page = await companyUsersPage(cmd.db, companyId, after, EXPORT_PAGE);
      if (page.length === 0) break;
      const templateIds = [...new Set(page.flatMap((u) => u.selectedAppCustomisationTemplate ?? []))];
      const [names, extensions] = await Promise.all([
        templateNamesByIds(cmd.db, templateIds),
        devices
          ? extensionsOfUsers(
              cmd.db,
              page.map((u) => u.id),
            )
          : undefined,
      ]);
      const lines = page.map((u) => {
        const cells = userCells(
          u,
          u.selectedAppCustomisationTemplate ? names.get(u.selectedAppCustomisationTemplate) : undefined,
        );
        const ext = extensions?.get(u.id);
        cells.pbxShortNumber = ext?.shortNumber ?? '';
        cells.pbxInternalNumber = ext?.internalNumber ?? '';
        return columns.map((c) => cells[c] ?? '');
      });
      await put(stringify(lines, CSV_OPTIONS));
      if (page.length < EXPORT_PAGE) break;
      after = page[page.length - 1].loginEmail.toLowerCase();
    }
  });
}
