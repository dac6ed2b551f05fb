// Office hours of a welcome (document 2, "Office hours"; issue 26, point 7): their strict
// validation, and the one pure function that says whether a welcome is open at an instant and
// when that next changes, in the welcome's IANA time zone. Time zones are read with Intl (the
// runtime's ICU data: package.json holds no luxon, date-fns-tz or Temporal polyfill), so the
// rules of every zone come with Node and nothing here parses them.
//
// Pinned contract (issue 26): a whole day is the period ["0"] (00:00 to 23:59), so a day open all
// day is [["0"]] and a closed day is []; the period ["09:00", "18:00"] is open from 09:00:00 to
// 18:00:59 local time (a period covers its start minute through its end minute); nextChange is
// the first instant at which isOpen flips.

export type Period = string[];

/** Document 2, office hours: seven day arrays from Sunday, and dated exceptions. */
export interface OfficeHoursValue {
  openhours: Period[][];
  exceptions: OfficeException[];
}

export interface OfficeException {
  year: number;
  month: number;
  mday: number;
  periods: Period[];
  open: boolean;
}

export const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

/** Issue 26, point 7: a new welcome opens Monday to Friday, 09:00 to 18:00. */
export function defaultOfficeHours(): OfficeHoursValue {
  const work: Period[] = [['09:00', '18:00']];
  return { openhours: [[], work, work, work, work, work, []], exceptions: [] };
}

/** What is wrong, naming the day or the exception (the service answers it as a 400's details). */
export interface OfficeHoursProblem {
  field: string;
  reason: string;
}

export class OfficeHoursError extends Error {
  readonly problem: OfficeHoursProblem;
  constructor(field: string, reason: string) {
    super(`${field}: ${reason}`);
    this.problem = { field, reason };
  }
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const WHOLE_DAY = '0';

/** Minutes of the day of "HH:MM" (00:00 to 23:59), or undefined. */
function minuteOf(s: unknown): number | undefined {
  if (typeof s !== 'string') return undefined;
  const m = HHMM.exec(s);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/**
 * Document 2: each period is [<HH:MM start>, <HH:MM end>] with start before end, or the single
 * string "0" (00:00 to 23:59). Anything else (a bare "0" in place of a period, "24:00", "9:00",
 * a start not before its end, a third element) is refused naming `where`.
 */
function checkPeriods(value: unknown, where: string): Period[] {
  if (!Array.isArray(value)) throw new OfficeHoursError(where, 'must be an array of periods');
  return value.map((p: unknown, i): Period => {
    const at = `${where}[${i}]`;
    if (!Array.isArray(p))
      throw new OfficeHoursError(at, 'a period is ["HH:MM", "HH:MM"] or ["0"] (a whole day is [["0"]])');
    if (p.length === 1 && p[0] === WHOLE_DAY) return [WHOLE_DAY];
    if (p.length !== 2) throw new OfficeHoursError(at, 'a period is ["HH:MM", "HH:MM"] or ["0"]');
    const start = minuteOf(p[0]);
    const end = minuteOf(p[1]);
    if (start === undefined || end === undefined)
      throw new OfficeHoursError(at, 'times are "HH:MM", 00:00 to 23:59, two digits each');
    if (start >= end) throw new OfficeHoursError(at, 'the start must be before the end');
    return [String(p[0]), String(p[1])];
  });
}

/** An integer from a number or a string of digits (clients of the original interface send both). */
function integerOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isInteger(v) ? v : undefined;
  if (typeof v === 'string' && /^\s*\d{1,5}\s*$/.test(v)) return Number(v);
  return undefined;
}

function booleanOf(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

/** Document 2: seven day arrays, the first Sunday. */
export function checkOpenhours(value: unknown): Period[][] {
  if (!Array.isArray(value) || value.length !== 7)
    throw new OfficeHoursError('openhours', 'seven day arrays are needed, the first Sunday');
  return value.map((day: unknown, i) => checkPeriods(day, `openhours[${i}] (${DAY_NAMES[i]})`));
}

/**
 * Document 2: exceptions {year, month 1 to 12, mday 1 to 31, periods, open}; the date must be a
 * real one (no 31 April, no 29 February of a common year), one exception per date (an exception
 * applies once: two for a date would contradict). A non-open exception is the whole day: its
 * periods may be absent, [] or [["0"]] and are stored as [["0"]]; other periods with open false
 * contradict it. An open exception needs at least one period (an open day with no period would
 * be a closed one).
 */
export function checkExceptions(value: unknown): OfficeException[] {
  if (!Array.isArray(value)) throw new OfficeHoursError('exceptions', 'must be an array');
  const seen = new Set<string>();
  return value.map((e: unknown, i): OfficeException => {
    const at = `exceptions[${i}]`;
    if (typeof e !== 'object' || e === null || Array.isArray(e))
      throw new OfficeHoursError(at, 'an exception is {year, month, mday, periods, open}');
    const get = (k: string): unknown => Object.getOwnPropertyDescriptor(e, k)?.value;
    const year = integerOf(get('year'));
    const month = integerOf(get('month'));
    const mday = integerOf(get('mday'));
    const open = booleanOf(get('open'));
    if (year === undefined || year < 1970 || year > 9999)
      throw new OfficeHoursError(`${at}.year`, 'a year from 1970 to 9999');
    if (month === undefined || month < 1 || month > 12) throw new OfficeHoursError(`${at}.month`, 'from 1 to 12');
    if (mday === undefined || mday < 1 || mday > 31) throw new OfficeHoursError(`${at}.mday`, 'from 1 to 31');
    if (new Date(Date.UTC(year, month - 1, mday)).getUTCDate() !== mday)
      throw new OfficeHoursError(`${at}.mday`, `${year}-${month}-${mday} is not a real date`);
    if (open === undefined) throw new OfficeHoursError(`${at}.open`, 'true or false');
    const key = `${year}-${month}-${mday}`;
    if (seen.has(key)) throw new OfficeHoursError(at, `a second exception for ${key}`);
    seen.add(key);
    const raw = get('periods');
    if (!open) {
      const periods = raw === undefined ? [] : checkPeriods(raw, `${at}.periods`);
      if (periods.some((p) => p.length !== 1))
        throw new OfficeHoursError(`${at}.periods`, 'a non-open exception is the whole day: [["0"]]');
      return { year, month, mday, periods: [[WHOLE_DAY]], open: false };
    }
    const periods = checkPeriods(raw, `${at}.periods`);
    if (periods.length === 0) throw new OfficeHoursError(`${at}.periods`, 'an open exception needs a period');
    return { year, month, mday, periods, open: true };
  });
}

// ---------------------------------------------------------------------------------------------
// Open or closed, and the next change.

/** The local wall time of an instant in a zone, to the minute. */
interface Local {
  year: number;
  month: number;
  day: number;
  /** 0 Sunday ... 6 Saturday. */
  weekday: number;
  minute: number;
  /** Offset from UTC in minutes (local = UTC + offset). */
  offset: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether Intl knows the IANA zone. */
export function isTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

function localOf(instant: number, zone: string): Local {
  const p: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(instant)) if (part.type !== 'literal') p[part.type] = +part.value;
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const seconds = Math.floor(instant / 1000) * 1000;
  return {
    year: p.year,
    month: p.month,
    day: p.day,
    weekday: new Date(Date.UTC(p.year, p.month - 1, p.day)).getUTCDay(),
    minute: p.hour * 60 + p.minute,
    offset: Math.round((wall - seconds) / 60_000),
  };
}

/** The periods that apply on a local date: its exception's (on that date only), else its weekday's. */
function periodsOn(hours: OfficeHoursValue, year: number, month: number, day: number, weekday: number): Period[] {
  const e = hours.exceptions.find((x) => x.year === year && x.month === month && x.mday === day);
  if (e) return e.open ? e.periods : [];
  return hours.openhours[weekday] ?? [];
}

/** [start, end] minutes of a period, both included ("0": the whole day). */
function span(p: Period): [number, number] {
  if (p.length === 1) return [0, 1439];
  return [minuteOf(p[0]) ?? 0, minuteOf(p[1]) ?? -1];
}

function openAt(hours: OfficeHoursValue, l: Local): boolean {
  return periodsOn(hours, l.year, l.month, l.day, l.weekday).some((p) => {
    const [s, e] = span(p);
    return s <= l.minute && l.minute <= e;
  });
}

/** How far nextChange looks ahead: beyond it, null (the hours never flip within it). */
export const HORIZON_DAYS = 400;
const DAY = 86_400_000;
const MINUTE = 60_000;

/**
 * The instants at which the local wall time (y, m, d, minute) occurs: none in a spring-forward
 * gap, two in a fall-back overlap, else one. `offsets` are the offsets seen around that day.
 */
function instantsOf(
  y: number,
  m: number,
  d: number,
  minute: number,
  offsets: number[],
  zone: string,
): { t: number; l: Local }[] {
  const wall = Date.UTC(y, m - 1, d) + minute * MINUTE;
  // No change of offset around the day: the wall time is one instant, its local time known.
  if (offsets.length === 1) {
    const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
    return [{ t: wall - offsets[0] * MINUTE, l: { year: y, month: m, day: d, weekday, minute, offset: offsets[0] } }];
  }
  const out: { t: number; l: Local }[] = [];
  for (const off of offsets) {
    const t = wall - off * MINUTE;
    if (out.some((x) => x.t === t)) continue;
    const l = localOf(t, zone);
    if (l.year === y && l.month === m && l.day === d && l.minute === minute) out.push({ t, l });
  }
  return out;
}

/** The instant (to the minute) in (a, b] at which the offset changes from the one at a (offsets differ at a and b). */
function transitionBetween(a: number, b: number, zone: string): number {
  const before = localOf(a, zone).offset;
  let lo = a;
  let hi = b;
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (localOf(mid, zone).offset === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

export interface OfficeState {
  isOpen: boolean;
  /** The first instant after `now` at which isOpen flips; null when it does not within HORIZON_DAYS. */
  nextChange: Date | null;
}

/**
 * Issue 26, point 7: whether the welcome is open at `now` in `zone`, and the first instant after
 * it at which that flips. The state only changes where a local day starts, where a period starts,
 * one minute after a period's end minute, or where the zone's offset changes (a daylight-saving
 * change): those instants are walked in order, day by day, and the first whose state differs is
 * the answer. A spring-forward gap has no local instants (its boundaries fall on the change
 * itself); a fall-back overlap has two of each (both are walked). The walk stops after
 * HORIZON_DAYS (or, when the week never changes, after the last exception): null then.
 */
export function officeState(hours: OfficeHoursValue, zone: string, now: Date): OfficeState {
  const t0 = Math.floor(now.getTime() / MINUTE) * MINUTE;
  const here = localOf(now.getTime(), zone);
  const isOpen = openAt(hours, here);
  const today = Date.UTC(here.year, here.month - 1, here.day);
  // The offset at local noon of day i (i days from today), each read once: the offsets around a
  // local day are those of the noons before and after it (a day of a change has two).
  const noons = new Map<number, number>();
  const noonOffset = (i: number) => {
    let o = noons.get(i);
    if (o === undefined) noons.set(i, (o = localOf(today + i * DAY + DAY / 2 - here.offset * MINUTE, zone).offset));
    return o;
  };
  for (const i of daysToWalk(hours, here)) {
    const dayStart = today + i * DAY;
    const date = new Date(dayStart);
    const [y, m, d] = [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()];
    const offA = noonOffset(i - 1);
    const offB = noonOffset(i + 1);
    const offsets = offA === offB ? [offA] : [offA, offB];
    const minutes = new Set<number>([0]);
    for (const p of periodsOn(hours, y, m, d, date.getUTCDay())) {
      const [s, e] = span(p);
      minutes.add(s);
      if (e + 1 < 1440) minutes.add(e + 1);
    }
    const candidates: { t: number; l: Local }[] = [];
    for (const mi of minutes) candidates.push(...instantsOf(y, m, d, mi, offsets, zone));
    if (offA !== offB) {
      const from = dayStart - offA * MINUTE - DAY / 2;
      const change = transitionBetween(from, from + 2 * DAY, zone);
      const l = localOf(change, zone);
      // Walked with the local day it falls on (this one's neighbour sees the same change).
      if (l.year === y && l.month === m && l.day === d) candidates.push({ t: change, l });
    }
    candidates.sort((a, b) => a.t - b.t);
    for (const c of candidates) {
      if (c.t <= t0) continue;
      if (openAt(hours, c.l) !== isOpen) return { isOpen, nextChange: new Date(c.t) };
    }
  }
  return { isOpen, nextChange: null };
}

/** Whether the day's periods, together, cover it from 00:00 to 23:59. */
function coversDay(periods: Period[]): boolean {
  let reach = -1;
  for (const [s, e] of periods.map(span).sort((a, b) => a[0] - b[0])) {
    if (s > reach + 1) return false;
    reach = Math.max(reach, e);
  }
  return reach >= 1439;
}

/**
 * The local days the walk visits (0 today): every day up to HORIZON_DAYS; or, when the week
 * never changes (closed every day, or open all day every day, whatever its periods), only today
 * and each exception's date and the day after it within the horizon (the state can change only
 * there): such hours answer at once instead of walking 400 days.
 */
function daysToWalk(hours: OfficeHoursValue, here: Local): number[] {
  const constant = hours.openhours.every((d) => d.length === 0) || hours.openhours.every(coversDay);
  if (!constant) return Array.from({ length: HORIZON_DAYS + 1 }, (_, i) => i);
  const today = Date.UTC(here.year, here.month - 1, here.day);
  const days = new Set<number>([0]);
  for (const e of hours.exceptions) {
    const n = Math.round((Date.UTC(e.year, e.month - 1, e.mday) - today) / DAY);
    for (const k of [n, n + 1]) if (k >= 0 && k <= HORIZON_DAYS) days.add(k);
  }
  return [...days].sort((a, b) => a - b);
}
