// Reading an import's CSV (issue 27, point 1; document 3: the header names the columns, `%` is
// the comment character, a value containing it is quoted).
import { describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { openCsv, type CsvRecord } from '../../src/modules/imports/csv.ts';
import { AppError } from '../../src/errors/catalogue.ts';
import '../../src/modules/index.ts';

async function read(text: string | Buffer, settings: { delimiter?: string; comment?: string } = {}) {
  const { header, records } = await openCsv(Buffer.isBuffer(text) ? text : Buffer.from(text), settings);
  const out: CsvRecord[] = [];
  for await (const chunk of records) {
    // Records come in chunks, never empty.
    expect(chunk.length).toBeGreaterThan(0);
    out.push(...chunk);
  }
  return { header, records: out };
}

const keyOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err.key;
    throw err;
  }
  return undefined;
};

describe('issue 27, point 1: reading the CSV', () => {
  for (const [d, name] of [
    [',', 'comma'],
    [';', 'semicolon'],
    ['\t', 'tab'],
    ['|', 'pipe'],
  ] as const)
    it(`the delimiter is found on the header: ${name}`, async () => {
      const { header, records } = await read(`loginEmail${d}firstName\na@x.example${d}Ann\n`);
      expect(header).toEqual({ columns: ['loginEmail', 'firstName'], delimiter: d, comment: '%' });
      expect(records.map((r) => r.cells)).toEqual([['a@x.example', 'Ann']]);
    });

  it('a delimiter given wins over the header (tab spelled \\t or tab); another is 400903', async () => {
    expect((await read('a;b\n1;2\n', { delimiter: ',' })).header.columns).toEqual(['a;b']);
    expect((await read('a\tb\n', { delimiter: '\\t' })).header.columns).toEqual(['a', 'b']);
    expect((await read('a\tb\n', { delimiter: 'tab' })).header.columns).toEqual(['a', 'b']);
    expect(await keyOf(read('a,b\n', { delimiter: ':' }))).toBe('CSV_BAD_DELIMITER');
  });

  it('a BOM is accepted; line numbers are physical, the header being line 1, comments and empty lines counted', async () => {
    const { records } = await read('\uFEFFa,b\n% a comment\n1,2\n\n"multi\nline",3\n4,5\n');
    expect(records.map((r) => [r.line, r.cells])).toEqual([
      [3, ['1', '2']],
      [5, ['multi\nline', '3']],
      [7, ['4', '5']],
    ]);
  });

  it('CRLF line ends read as LF, numbers unchanged', async () => {
    const { records } = await read('a,b\r\n1,2\r\n"x\r\ny",3\r\n4,5');
    expect(records.map((r) => [r.line, r.cells, r.raw])).toEqual([
      [2, ['1', '2'], '1,2'],
      [3, ['x\ny', '3'], '"x\ny",3'],
      [5, ['4', '5'], '4,5'],
    ]);
  });

  it('doc 3: a quoted value keeps the comment character, an unquoted one starts a comment; quotes and delimiters inside quotes', async () => {
    const { records } = await read('a;b;c\n"50%";"x;""y""";z % the rest is a comment\n');
    expect(records[0].cells).toEqual(['50%', 'x;"y"', 'z']);
  });

  it('the comment parameter changes the comment character', async () => {
    const { records } = await read('a,b\n# skipped\n1,50%\n', { comment: '#' });
    expect(records.map((r) => r.cells)).toEqual([['1', '50%']]);
  });

  it('a line with too many or too few fields, a byte that is not UTF-8 and a malformed quote each fail alone; reading goes on', async () => {
    const data = Buffer.concat([
      Buffer.from('a,b\n1\n1,2,3\nok,'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('\n1,"x"y\n5,6\n'),
    ]);
    const { records } = await read(data);
    expect(records.map((r) => [r.line, r.problem ?? 'ok'])).toEqual([
      [2, 'field_count'],
      [3, 'field_count'],
      [4, 'not_utf8'],
      [5, 'malformed_quote'],
      [6, 'ok'],
    ]);
    expect(records[3].raw).toBe('1,"x"y');
  });

  it('a quote never closed fails its line and ends the reading', async () => {
    const { records } = await read('a,b\n1,2\n"open,3\n4,5\n');
    expect(records.map((r) => [r.line, r.problem ?? 'ok'])).toEqual([
      [2, 'ok'],
      [3, 'malformed_quote'],
    ]);
  });

  it('no header is 400901; a header that is not UTF-8 is 400900', async () => {
    expect(await keyOf(read(''))).toBe('CSV_NO_HEADER');
    expect(await keyOf(read('% only a comment\n'))).toBe('CSV_NO_HEADER');
    expect(await keyOf(read(Buffer.from([0x61, 0xff, 0x0a, 0x31])))).toBe('CSV_NOT_UTF8');
  });
});
