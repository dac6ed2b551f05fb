// Errors of the bulk import (document 3, Bulk import of users and devices; issue 27): n = 900..949.
// The errors of one CSV line are not answers: they are the report's `{code, message}`
// (line-errors.ts).
import type { ErrorEntry } from '../../errors/catalogue.ts';

export const importErrors = {
  CSV_NOT_UTF8: {
    status: 400,
    code: 400900,
    message: 'Bad Request: the CSV is not UTF-8 text (a byte that is no UTF-8, or a NUL character)',
  },
  CSV_NO_HEADER: {
    status: 400,
    code: 400901,
    message: 'Bad Request: the CSV has no header line naming its columns',
  },
  CSV_NO_KNOWN_COLUMN: {
    status: 400,
    code: 400902,
    message:
      'Bad Request: the header names no column of the import (GET /massprovisioning/v1.0/users/template lists them)',
  },
  CSV_BAD_DELIMITER: {
    status: 400,
    code: 400903,
    message: 'Bad Request: delimiter must be one of , ; | or a tab (\\t), and comment one character other than it',
  },
  CSV_MODE_MISMATCH: {
    status: 400,
    code: 400904,
    message: 'Bad Request: the columns of this CSV are those of the voice import (or not): use the route of its mode',
  },
  IMPORT_NO_CLOUDPBX: {
    status: 400,
    code: 400905,
    message: 'Bad Request: the company has no CloudPBX: the voice import provisions the subscribers of its CloudPBX',
  },
  IMPORT_ALREADY_EXISTS: {
    status: 409,
    code: 409900,
    message: 'Conflict: this CSV was already imported into this company; delete its report to import it again',
  },
  COMMAND_REPORT_NOT_FOUND: {
    status: 404,
    code: 404900,
    message: 'Not Found: no check, import or report was recorded for this commandId',
  },
} satisfies Record<string, ErrorEntry>;

declare module '../../errors/catalogue.ts' {
  interface ModuleErrorKeys extends Record<keyof typeof importErrors, true> {}
}
