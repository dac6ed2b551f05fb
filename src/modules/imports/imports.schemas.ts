// Shapes of the bulk import (document 3: Check report, Import request summary, Import report; the
// route table's Bulk import; issue 27).
import { Type } from 'typebox';
import { DateTime, Id, Nullable, Obj, OneOf, nameSchemas } from '../../http/schemas.ts';
import { optionalPageQuery } from '../../http/paging.ts';

export const MODES = ['user', 'device', 'useranddevice', 'voice'] as const;
const Mode = OneOf(MODES);
const Flag = Type.Union([Type.Boolean(), OneOf(['true', 'false'])], { description: 'true or false' });

/**
 * A commandId is the client's (a UUID in the SDK): at most 63 characters, so that the 404 of an
 * unknown one, which names the id, never repeats a long input (test/http/fuzz.test.ts: no error answer repeats an input of 64 characters).
 */
const COMMAND_ID_MAX = 63;

/** Query of the check and import routes (document 3; every parameter in the query, as the SDK sends them). */
export const ImportQuery = Type.Object({
  companyId: Type.Optional(Id("the company imported into; default the caller's")),
  delimiter: Type.Optional(
    Type.String({ maxLength: 3, description: 'one of , ; | or \\t (tab); detected from the header when absent' }),
  ),
  comment: Type.Optional(Type.String({ maxLength: 1, description: 'the comment character, default %' })),
  label: Type.Optional(Type.String({ maxLength: 255, description: 'a label of the import, shown in its summary' })),
  commandId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: COMMAND_ID_MAX,
      description: 'keeps the last result under this id and sends command_ended (document 1) when the work ends',
    }),
  ),
  noemails: Type.Optional(Flag),
  nostrict: Type.Optional(Flag),
});

export const CommandParams = Type.Object({ commandId: Type.String({ minLength: 1, maxLength: COMMAND_ID_MAX }) });
export const ReqIdParams = Type.Object({
  reqId: Type.String({ minLength: 1, maxLength: 40, description: 'the hash of the CSV data (40 characters)' }),
});
export const CompanyParams = Type.Object({ companyId: Id() });
export const CompanyQuery = Type.Object({ companyId: Type.Optional(Id("default the caller's company")) });
export const ListImportsQuery = Type.Object({ ...CompanyQuery.properties, ...optionalPageQuery() });
export const PageQuery = Type.Object(optionalPageQuery());
export const ReportQuery = Type.Object({
  format: Type.Optional(OneOf(['small', 'full'] as const, { description: 'small: the summary alone; default full' })),
  // Issue 28, point 9: a report of a million lines is read a page at a time, in the order of the CSV.
  ...optionalPageQuery(),
  status: Type.Optional(
    OneOf(['succeeded', 'failed'] as const, {
      description: '(+) only the lines of that status in `report` and `failingLines` (their keys unchanged)',
    }),
  ),
});

const Counters = Obj({
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  warnings: Type.Integer(),
  total: Type.Integer(),
});

const LineErrorSchema = Obj({ code: Type.Integer(), message: Type.String() });

export const Profile = Obj({
  name: Type.String({ description: "the offer of one of the company's subscriptions" }),
  subscriptionId: Id(),
  valid: Type.Boolean({ description: 'the subscription is active and gives licences' }),
  assignedBefore: Type.Integer(),
  assignedAfter: Type.Integer({
    description: 'after the import: new users take a licence of the default subscription',
  }),
  max: Nullable(Type.Integer({ description: 'null: no limit' })),
});

export const CheckReport = Obj(
  {
    reqId: Type.String({ description: 'the hash of the CSV data: the reqId its import would have' }),
    mode: Mode,
    actions: Type.Record(Type.String(), Type.Integer(), {
      description: 'lines per action (upsert, sync, delete, detach; in device modes attach, force_attach, detach)',
    }),
    columns: Type.Integer({ description: 'the number of columns understood' }),
    delimiter: Type.String(),
    ignoredColumns: Type.Array(Type.String(), { description: 'header names not understood: ignored' }),
    profiles: Type.Array(Profile, { description: 'user modes only' }),
    total: Type.Integer({ description: 'lines read (the header and comments aside)' }),
    valid: Type.Integer({ description: 'lines without an error found' }),
    errors: Type.Array(Obj({ line: Type.Integer(), login: Type.String(), error: LineErrorSchema }), {
      description: 'every line error found without writing (at most 1,000)',
    }),
  },
  { description: 'document 3, Check report' },
);

/** What an import answers at once (document 3, rule 2), and the start of its summary. */
const started = {
  reqId: Type.String(),
  status: OneOf(['Pending', 'Terminated', 'Deleted'] as const),
  label: Nullable(Type.String()),
  mode: Mode,
  displayName: Type.String(),
  userId: Id(),
  startTime: DateTime(),
};
const summary = { ...started, companyId: Id(), endTime: Nullable(DateTime()), counters: Counters };

export const ImportStarted = Obj(started);

export const ImportSummary = Obj(summary, { description: 'document 3, Import request summary' });

const SubReport = Type.Object(
  {
    action: Type.String(),
    userId: Type.Optional(Type.String()),
    companyId: Type.Optional(Type.String()),
    status: OneOf(['done', 'failed'] as const),
    origin: Type.Record(Type.String(), Type.Unknown(), { description: '{<key>: value, state}' }),
    error: Type.Optional(LineErrorSchema),
  },
  { additionalProperties: true },
);

export const ReportEntry = Type.Object(
  {
    status: OneOf(['succeeded', 'failed'] as const),
    action: Type.String(),
    _user: Type.Optional(Type.String({ description: 'create, update, delete or none' })),
    userId: Type.Optional(Type.String()),
    profiles: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
    _subscriber: Type.Optional(SubReport),
    _sipDevice: Type.Optional(SubReport),
    _ddi: Type.Optional(SubReport),
    _device: Type.Optional(SubReport),
    line: Type.Optional(Type.Integer()),
    error: Type.Optional(LineErrorSchema),
  },
  { additionalProperties: true },
);

export const ImportReport = Obj(
  {
    ...summary,
    report: Type.Optional(Type.Record(Type.String(), ReportEntry, { description: 'keyed by login' })),
    failingLines: Type.Optional(Type.Array(Type.String())),
    reportTotal: Type.Optional(
      Type.Integer({ description: '(+) with limit or offset: the lines of the report (of that status), all pages' }),
    ),
    reportLimit: Type.Optional(Type.Integer({ description: '(+) with limit or offset: the page size applied' })),
    reportOffset: Type.Optional(Type.Integer({ description: '(+) with limit or offset: the lines skipped' })),
  },
  { description: 'document 3, Import report (full); format=small: the summary alone' },
);

/**
 * The list of imports: `{data}` whole, as document 3 answers it; with limit or offset (issue 28,
 * point 9) a page with its total, as the paged lists of document 1 (`{data, total, limit, offset}`).
 */
export const ImportList = Obj(
  {
    data: Type.Array(ImportSummary),
    total: Type.Optional(Type.Integer({ description: '(+) with limit or offset: every import of the company' })),
    limit: Type.Optional(Type.Integer({ description: '(+) with limit or offset: the page size applied' })),
    offset: Type.Optional(Type.Integer({ description: '(+) with limit or offset: the imports skipped' })),
  },
  { description: 'document 3, the imports of a company, the latest first' },
);

export const Deleted = Obj({ reqId: Type.String(), status: OneOf(['Deleted'] as const) });

export const CommandReportBody = Obj({
  details: Type.String({ minLength: 1, maxLength: 10000 }),
  status: OneOf(['success', 'failure'] as const),
});

export const CommandCheckAnswer = Obj({ status: Type.String(), report: CheckReport });
export const CommandImportAnswer = Obj({ status: Type.String(), report: ImportSummary });
export const CommandReportAnswer = Obj({ status: Type.String(), report: Obj({ details: Type.String() }) });

export const TemplateQuery = Type.Object({
  companyId: Type.Optional(Id("default the caller's company")),
  mode: Type.Optional(Mode),
  comment: Type.Optional(Flag),
});

nameSchemas({ CheckReport, ImportSummary, ImportReport, ImportStarted, ImportList });
