// Reading an import's CSV (document 3, Bulk import: "The first CSV line describes the columns";
// "The comment character is `%` by default; a field value that contains it must be wrapped in
// double quotes"; issue 27, point 1). csv-parse reads it as a stream of records: UTF-8 (a BOM
// accepted), quoted fields with delimiters, quotes and line breaks, comments. Each record carries
// its physical line (1-based, the header being line 1, comment and empty lines counted) and its
// own text, so that a report names the line and gives it back as it was.
import { parse } from 'csv-parse';
import { fail } from '../../errors/catalogue.ts';

/** The delimiters a CSV may use; the first line decides among them unless the request names one. */
export const DELIMITERS = [',', ';', '\t', '|'] as const;
export const DEFAULT_COMMENT = '%';

export interface CsvSettings {
  /** The request's `delimiter`: one of DELIMITERS (`\t` or `tab` for the tab); detected when absent. */
  delimiter?: string;
  /** The request's `comment`: one character (default `%`). */
  comment?: string;
}

/** A record of the CSV after the header: its cells as read, its physical line and its text. */
export interface CsvRecord {
  line: number;
  cells: string[];
  /** The record's own text (without the comment or empty lines before it). */
  raw: string;
  /** What makes the record unreadable as a line of the import (its cells are then not used). */
  problem?: 'not_utf8' | 'field_count' | 'malformed_quote';
}

export interface CsvHeader {
  columns: string[];
  delimiter: string;
  comment: string;
}

const REPLACEMENT = '\uFFFD';
/** A NUL is no text: PostgreSQL refuses it in every text value (22021), so its line is refused as not UTF-8 text. */
const NUL = '\u0000';
/** A line's text as the report keeps it (failingLines): a NUL shown as U+FFFD, as the bytes that are no UTF-8 are. */
const storable = (text: string) => (text.includes(NUL) ? text.replaceAll(NUL, REPLACEMENT) : text);

/** The request's delimiter as a character (`\t`, `tab` and `%09` name the tab); 400 when it is none of DELIMITERS. */
export function delimiterOf(given: string | undefined): string | undefined {
  if (given === undefined || given === '') return undefined;
  const d = given === '\\t' || given.toLowerCase() === 'tab' ? '\t' : given;
  const known = DELIMITERS.find((x) => x === d);
  if (!known) fail('CSV_BAD_DELIMITER', { delimiter: given });
  return known;
}

function commentOf(given: string | undefined, delimiter: string | undefined): string {
  const c = given === undefined || given === '' ? DEFAULT_COMMENT : given;
  if ([...c].length !== 1 || c === delimiter || c === '"' || c === '\n' || c === '\r')
    fail('CSV_BAD_DELIMITER', { comment: given });
  return c;
}

/**
 * The delimiter of the header line: the candidate found most often outside quotes (a header of
 * one column has none: `,`).
 */
function detectDelimiter(data: Buffer, comment: string): string {
  const text = data
    .subarray(0, 64 * 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const line =
    text
      .split(/\r?\n/)
      .map((l) => l.trim())
      .find((l) => l !== '' && !l.startsWith(comment)) ?? '';
  let best = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    let n = 0;
    let quoted = false;
    for (const ch of line) {
      if (ch === '"') quoted = !quoted;
      else if (ch === d && !quoted) n++;
    }
    if (n > bestCount) [best, bestCount] = [d, n];
  }
  return best;
}

const newlines = (s: string) => {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
};

/** The last `count` lines of a record's raw text (csv-parse prefixes the comment and empty lines before it). */
function ownText(raw: string, count: number): string {
  const body = raw.replace(/\n$/, '');
  let at = body.length;
  for (let i = 0; i < count && at > 0; i++) at = body.lastIndexOf('\n', at - 1);
  return at <= 0 && body.lastIndexOf('\n', 0) === -1 ? body : body.slice(at + 1);
}

const CHUNK = 64 * 1024;

/** The byte offset of the start of the physical line `n` lines after `from` (the buffer's end when there are fewer). */
function skipLines(data: Buffer, from: number, n: number): number {
  let at = from;
  for (let i = 0; i < n; i++) {
    const nl = data.indexOf(10, at);
    if (nl === -1) return data.length;
    at = nl + 1;
  }
  return at;
}

interface Parsed {
  record: string[];
  raw: string;
}

const isParsed = (r: unknown): r is Parsed =>
  typeof r === 'object' && r !== null && 'record' in r && Array.isArray(r.record) && 'raw' in r;

/**
 * The records of `data` from byte `from` (physical line `firstLine`), each as csv-parse gives it,
 * fed in chunks so that a malformed record stops the parse where it is (the records before it are
 * all given). Ends with the error that stopped it, if any. The records come a chunk's worth at a
 * time (a few hundred lines): a step of an async generator per record cost an import a promise
 * and a result object at each of its three stages, a fifth of all it allocated.
 */
async function* parseSegment(
  data: Buffer,
  from: number,
  options: { delimiter: string; comment: string },
): AsyncGenerator<Parsed[], { code: string; lines: number } | undefined> {
  const pending: Parsed[] = [];
  let error: { code: string; lines: number } | undefined;
  const parser = parse({
    ...options,
    bom: from === 0,
    // `raw` alone: with `info` too, csv-parse built an object of a dozen fields per record and
    // decoded the record's bytes a second time for it; nothing here reads it (line numbers come
    // from the raw text).
    raw: true,
    trim: true,
    relax_column_count: true,
    skip_empty_lines: true,
    // Physical lines end with LF (CRLF made LF by withLf): a lone CR is no line end, as it is not
    // one for the line numbers (csv-parse would otherwise take the first CR it meets for the record
    // delimiter and count lines its own way).
    record_delimiter: '\n',
    // With `raw`, csv-parse hands each record as {record, raw}: kept here, not streamed.
    on_record: (r: unknown) => {
      if (isParsed(r)) pending.push(r);
      return null;
    },
  });
  parser.on('error', (e: Error & { code?: string; lines?: number }) => {
    error = { code: e.code ?? 'CSV_ERROR', lines: e.lines ?? 0 };
  });
  parser.resume();
  for (let at = from; at < data.length && !error; at += CHUNK) {
    parser.write(data.subarray(at, Math.min(at + CHUNK, data.length)));
    await new Promise(setImmediate);
    if (pending.length) yield pending.splice(0);
  }
  if (!error) {
    parser.end();
    await new Promise(setImmediate);
    if (pending.length) yield pending.splice(0);
  }
  return error;
}

/**
 * The header and the records of a CSV held in `data`, the records read lazily. The header must be
 * UTF-8 (400900) and present (400901); a record that is not readable as a line (a byte that is no
 * UTF-8 or a NUL, a field count other than the header's, a malformed quote) comes with its `problem`, for
 * the report of its line. After a malformed quote the reading goes on at the next physical line;
 * a quote never closed ends it.
 */
export async function openCsv(
  data: Buffer,
  settings: CsvSettings,
): Promise<{ header: CsvHeader; records: AsyncGenerator<CsvRecord[]> }> {
  const given = delimiterOf(settings.delimiter);
  const comment = commentOf(settings.comment, given);
  const delimiter = given ?? detectDelimiter(data, comment);
  const options = { delimiter, comment };
  const all = recordsFrom(withLf(data), options);
  const first = await all.next();
  if (first.done) fail('CSV_NO_HEADER');
  const [head, ...rest] = first.value;
  if (head.problem === 'not_utf8') fail('CSV_NOT_UTF8', { line: head.line });
  if (head.problem) fail('CSV_NO_HEADER', { line: head.line });
  const columns = head.cells;
  const checked = (chunk: CsvRecord[]) =>
    chunk.map((r): CsvRecord =>
      r.problem || r.cells.length === columns.length ? r : { ...r, problem: 'field_count' },
    );
  async function* records(): AsyncGenerator<CsvRecord[]> {
    if (rest.length) yield checked(rest);
    for await (const chunk of all) yield checked(chunk);
  }
  return { header: { columns, delimiter, comment }, records: records() };
}

/**
 * The text with its CRLF line ends as LF (a value's own line breaks included): csv-parse's raw
 * text and line count are exact only on LF.
 */
function withLf(data: Buffer): Buffer {
  if (data.indexOf('\r\n') === -1) return data;
  const out = Buffer.allocUnsafe(data.length);
  let n = 0;
  for (let i = 0; i < data.length; i++) {
    const b = data[i];
    if (b !== 13 || data[i + 1] !== 10) out[n++] = b;
  }
  return out.subarray(0, n);
}

/**
 * Every record of the CSV, the header first, each with its physical line, its text and its problem
 * if any; in chunks of records (never empty), in order.
 */
async function* recordsFrom(
  data: Buffer,
  options: { delimiter: string; comment: string },
): AsyncGenerator<CsvRecord[]> {
  let from = 0;
  let base = 0; // physical lines before `from`
  for (;;) {
    const segment = parseSegment(data, from, options);
    // Lines are counted on the text itself (csv-parse's count drifts on CRLF inside quotes).
    let linesBefore = base;
    let r = await segment.next();
    for (; !r.done; r = await segment.next()) {
      const chunk: CsvRecord[] = [];
      for (const { record, raw } of r.value) {
        const inner = record.reduce((n, c) => n + newlines(c), 0);
        const end = linesBefore + newlines(raw.endsWith('\n') ? raw.slice(0, -1) : raw) + 1;
        linesBefore += newlines(raw);
        const text = storable(ownText(raw, inner + 1));
        chunk.push(
          raw.includes(REPLACEMENT) || raw.includes(NUL)
            ? { line: end - inner, cells: record, raw: text, problem: 'not_utf8' }
            : { line: end - inner, cells: record, raw: text },
        );
      }
      yield chunk;
    }
    const lastLine = linesBefore;
    const error = r.value;
    if (!error) return;
    // The malformed record starts on the line after the last good one, past the empty and comment
    // lines csv-parse skipped before it.
    let start = skipLines(data, from, lastLine - base);
    let skipped = 0;
    for (;;) {
      const end = data.indexOf(10, start);
      if (end === -1) break;
      const text = data.subarray(start, end).toString('utf8').trim();
      if (text !== '' && !text.startsWith(options.comment)) break;
      start = end + 1;
      skipped++;
    }
    const lineEnd = data.indexOf(10, start);
    const text = data.subarray(start, lineEnd === -1 ? data.length : lineEnd).toString('utf8');
    yield [{ line: lastLine + 1 + skipped, cells: [], raw: storable(text), problem: 'malformed_quote' }];
    if (error.code === 'CSV_QUOTE_NOT_CLOSED' || error.lines <= lastLine - base) return;
    // Read on from the line after the one csv-parse stopped at.
    from = skipLines(data, from, error.lines);
    base += error.lines;
    if (from >= data.length) return;
  }
}
