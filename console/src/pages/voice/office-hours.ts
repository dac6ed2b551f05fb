// Office hours as the service holds them (document 2, Office hours; src/modules/pbx/office-hours.ts):
// seven day arrays from Sunday, each a list of periods ["HH:MM", "HH:MM"] (start minute through
// end minute) or ["0"] (the whole day), and dated exceptions. These helpers turn them into
// minutes for the week grid and back; the service remains the judge of what it accepts.
import type { OfficeException } from './types.ts';

export type Period = string[];

/** The days in the order the grid shows them (Monday first), with their index in openhours (Sunday 0). */
export const WEEK: { index: number; name: string }[] = [
  { index: 1, name: 'Monday' },
  { index: 2, name: 'Tuesday' },
  { index: 3, name: 'Wednesday' },
  { index: 4, name: 'Thursday' },
  { index: 5, name: 'Friday' },
  { index: 6, name: 'Saturday' },
  { index: 0, name: 'Sunday' },
];

export const WHOLE_DAY: Period = ['0'];
const DAY_MINUTES = 24 * 60;

export function minuteOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** A period's minutes, its end exclusive: ["09:00", "18:00"] is open 09:00 to 18:00:59. */
export function spanOf(p: Period): { from: number; to: number } {
  if (p.length === 1) return { from: 0, to: DAY_MINUTES };
  return { from: minuteOf(p[0] ?? '00:00'), to: Math.min(DAY_MINUTES, minuteOf(p[1] ?? '00:00') + 1) };
}

export function periodText(p: Period): string {
  return p.length === 1 ? 'all day' : `${p[0]}–${p[1]}`;
}

/** The closed stretches of a day: what its open periods leave. */
export function closedSpans(periods: Period[]): { from: number; to: number }[] {
  const open = periods.map(spanOf).sort((a, b) => a.from - b.from);
  const out: { from: number; to: number }[] = [];
  let at = 0;
  for (const s of open) {
    if (s.from > at) out.push({ from: at, to: s.from });
    at = Math.max(at, s.to);
  }
  if (at < DAY_MINUTES) out.push({ from: at, to: DAY_MINUTES });
  return out;
}

export function hhmm(minutes: number): string {
  const m = Math.min(minutes, DAY_MINUTES - 1);
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** A day with a period added, sorted by start; the whole day replaces every other period. */
export function withPeriod(day: Period[], p: Period): Period[] {
  if (p.length === 1) return [WHOLE_DAY];
  return [...day.filter((x) => x.length !== 1), p].sort((a, b) => spanOf(a).from - spanOf(b).from);
}

export function sameDate(e: OfficeException, iso: string): boolean {
  return isoOf(e) === iso;
}

/** "YYYY-MM-DD" of an exception (the calendar's date strings). */
export function isoOf(e: OfficeException): string {
  return `${e.year}-${String(e.month).padStart(2, '0')}-${String(e.mday).padStart(2, '0')}`;
}

export function exceptionOn(iso: string, open: boolean, periods: Period[]): OfficeException {
  const [year, month, mday] = iso.split('-').map(Number);
  return { year: year ?? 1970, month: month ?? 1, mday: mday ?? 1, open, periods: open ? periods : [WHOLE_DAY] };
}
