// The per-line report read a page at a time (issue 28, point 9): getImportReport with limit and
// offset answers the page's lines, their failing lines and reportTotal, the lines of the status
// asked for on every page.
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import type { Page, PageRequest } from '../../components/ServerTable.tsx';
import { reportRows, type ReportRow, type StatusFilter } from './report-rows.ts';

const DETAILS = '/api/svc/massprovisioning/v1.0/users/imports/{reqId}/details';
/** The service's largest page (document 1's bound of every list). */
const MAX_PAGE = 1000;

async function reportPage(reqId: string, status: StatusFilter, limit: number, offset: number) {
  const query = { format: 'full' as const, limit, offset, ...(status === 'all' ? {} : { status }) };
  return (await unwrap(api.GET(DETAILS, { params: { path: { reqId }, query } }))).data;
}

/** One page of the table: the lines of that status, in the order of the CSV (no sort is offered). */
export async function fetchReportPage(reqId: string, status: StatusFilter, req: PageRequest): Promise<Page<ReportRow>> {
  const r = await reportPage(reqId, status, req.limit, req.offset);
  return { data: reportRows(r.report), total: r.reportTotal ?? 0 };
}

/**
 * Every failing line, as written (document 3, failingLines), read 1,000 at a time until the
 * report's total of failed lines is reached: the file holds them all, whatever the report's size.
 */
export async function allFailingLines(reqId: string): Promise<string[]> {
  const lines: string[] = [];
  for (let offset = 0; ; offset += MAX_PAGE) {
    const r = await reportPage(reqId, 'failed', MAX_PAGE, offset);
    lines.push(...(r.failingLines ?? []));
    if (offset + MAX_PAGE >= (r.reportTotal ?? 0)) return lines;
  }
}
