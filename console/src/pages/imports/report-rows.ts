// The rows of an import's per-line report (document 3, Import report: "report, keyed by the user
// login ... failingLines"): one row per entry of a page, in the service's order (the order of the
// lines), a login's later lines keyed `<login>#<line>`, a line without login `line <n>`.
import type { Schemas } from '../../api/client.ts';

type Entry = NonNullable<Schemas['ImportReport']['report']>[string];

export interface ReportRow {
  key: string;
  login: string;
  line?: number;
  status: Entry['status'];
  action: string;
  user?: string;
  /** The line's error, or the first error of its parts (subscriber, SIP device, DDI, device). */
  error?: { code: number; message: string };
  /** The parts done or failed: `subscriber done`, `sipDevice failed`… */
  parts: string[];
}

const PARTS = ['_subscriber', '_sipDevice', '_ddi', '_device'] as const;

export function reportRows(report: Schemas['ImportReport']['report']): ReportRow[] {
  return Object.entries(report ?? {}).map(([key, e]) => {
    const parts = PARTS.flatMap((p) => {
      const sub = e[p];
      return sub ? [{ name: p.slice(1), sub }] : [];
    });
    return {
      key,
      login: key.replace(/#\d+$/, ''),
      line: e.line ?? lineOfKey(key),
      status: e.status,
      action: e.action,
      user: e._user,
      error: e.error ?? parts.find((p) => p.sub.error)?.sub.error,
      parts: parts.map((p) => `${p.name} ${p.sub.status}`),
    };
  });
}

const lineOfKey = (key: string): number | undefined => {
  const m = /(?:#|^line )(\d+)$/.exec(key);
  return m ? Number(m[1]) : undefined;
};

export type StatusFilter = 'all' | 'failed' | 'succeeded';
