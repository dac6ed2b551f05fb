// The summary of an import request (document 3, Import request summary), from its row.
import type { imports } from './imports.tables.ts';

export type ImportRow = typeof imports.$inferSelect;

export function toSummary(r: ImportRow) {
  return {
    reqId: r.id,
    status: r.status,
    label: r.label,
    mode: r.mode,
    displayName: r.displayName,
    userId: r.userId,
    companyId: r.companyId,
    startTime: r.startTime,
    endTime: r.endTime,
    counters: { succeeded: r.succeeded, failed: r.failed, warnings: r.warnings, total: r.total },
  };
}
