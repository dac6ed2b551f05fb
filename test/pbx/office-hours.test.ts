// Unit tests of the office hours' one pure function and their validation (issue 26, point 7;
// document 2, "Office hours"; src/modules/pbx/office-hours.ts).
import { describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import {
  checkExceptions,
  checkOpenhours,
  defaultOfficeHours,
  officeState,
  OfficeHoursError,
  type OfficeHoursValue,
} from '../../src/modules/pbx/office-hours.ts';

const PARIS = 'Europe/Paris';
const at = (iso: string) => new Date(iso);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Every day open 09:00-18:00. */
const everyDay = (): OfficeHoursValue => ({
  openhours: Array.from({ length: 7 }, () => [['09:00', '18:00']]),
  exceptions: [],
});

function problem(f: () => unknown): { field: string; reason: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof OfficeHoursError) return e.problem;
    throw e;
  }
  throw new Error('no problem found');
}

describe('office hours: isOpen and nextChange (issue 26, point 7)', () => {
  it('issue 26, point 7: a new welcome opens Monday to Friday 09:00 to 18:00', () => {
    const h = defaultOfficeHours();
    // Saturday 2026-11-28 12:00 Paris: closed until Monday 09:00.
    const s = officeState(h, PARIS, at('2026-11-28T11:00:00Z'));
    expect(s.isOpen).toBe(false);
    expect(iso(s.nextChange)).toBe('2026-11-30T08:00:00.000Z');
    // Monday 10:00 Paris: open until 18:00:59, so the change is at 18:01 local.
    const m = officeState(h, PARIS, at('2026-11-30T09:00:00Z'));
    expect(m.isOpen).toBe(true);
    expect(iso(m.nextChange)).toBe('2026-11-30T17:01:00.000Z');
  });

  it('issue 26, pinned contract: ["09:00","18:00"] is open from 09:00:00 to 18:00:59 local', () => {
    const h = everyDay();
    expect(officeState(h, PARIS, at('2026-11-30T07:59:59Z')).isOpen).toBe(false);
    expect(officeState(h, PARIS, at('2026-11-30T08:00:00Z')).isOpen).toBe(true);
    expect(officeState(h, PARIS, at('2026-11-30T17:00:59Z')).isOpen).toBe(true);
    expect(officeState(h, PARIS, at('2026-11-30T17:01:00Z')).isOpen).toBe(false);
  });

  it('issue 26, point 7: across the spring daylight-saving change (Europe/Paris, 29 March 2026)', () => {
    const h = everyDay();
    // Saturday 28 March 20:00 CET (UTC+1): closed; next opening Sunday 09:00 CEST (UTC+2) = 07:00Z.
    const s = officeState(h, PARIS, at('2026-03-28T19:00:00Z'));
    expect(s.isOpen).toBe(false);
    expect(iso(s.nextChange)).toBe('2026-03-29T07:00:00.000Z');
    // Open Sunday: closes at 18:01 CEST = 16:01Z.
    expect(iso(officeState(h, PARIS, at('2026-03-29T08:00:00Z')).nextChange)).toBe('2026-03-29T16:01:00.000Z');
  });

  it('issue 26, point 7: across the autumn daylight-saving change (Europe/Paris, 25 October 2026)', () => {
    const h = everyDay();
    // Saturday 24 October 20:00 CEST: next opening Sunday 09:00 CET (UTC+1) = 08:00Z.
    const s = officeState(h, PARIS, at('2026-10-24T18:00:00Z'));
    expect(s.isOpen).toBe(false);
    expect(iso(s.nextChange)).toBe('2026-10-25T08:00:00.000Z');
  });

  it('issue 26, point 7: a period inside the skipped spring hour; the change itself flips it', () => {
    // Sunday 29 March 2026: 02:00-02:59 do not exist in Paris. Open 01:00 to 02:30: closes at the
    // change (03:00 CEST = 01:00Z), not at a local 02:31 that never comes.
    const h: OfficeHoursValue = { openhours: [[['01:00', '02:30']], [], [], [], [], [], []], exceptions: [] };
    const s = officeState(h, PARIS, at('2026-03-29T00:30:00Z'));
    expect(s.isOpen).toBe(true);
    expect(iso(s.nextChange)).toBe('2026-03-29T01:00:00.000Z');
  });

  it('issue 26, point 7: a period inside the repeated autumn hour is open twice', () => {
    // Sunday 25 October 2026: 02:00-02:59 happen twice in Paris (CEST then CET).
    const h: OfficeHoursValue = { openhours: [[['02:00', '02:29']], [], [], [], [], [], []], exceptions: [] };
    // 02:45 CEST (00:45Z): closed; opens again at 02:00 CET = 01:00Z.
    const s = officeState(h, PARIS, at('2026-10-25T00:45:00Z'));
    expect(s.isOpen).toBe(false);
    expect(iso(s.nextChange)).toBe('2026-10-25T01:00:00.000Z');
    // Then closes at 02:30 CET = 01:30Z.
    expect(iso(officeState(h, PARIS, at('2026-10-25T01:10:00Z')).nextChange)).toBe('2026-10-25T01:30:00.000Z');
  });

  it('issue 26, point 7: an exception applies on its date only', () => {
    const h = defaultOfficeHours();
    h.exceptions = [{ year: 2026, month: 12, mday: 25, periods: [['0']], open: false }];
    // Thursday 24 December 17:00 Paris: open, closes 18:01.
    expect(iso(officeState(h, PARIS, at('2026-12-24T16:00:00Z')).nextChange)).toBe('2026-12-24T17:01:00.000Z');
    // Friday 25 December 10:00: closed all day; next opening Monday 28 at 09:00 (the weekend is closed).
    const xmas = officeState(h, PARIS, at('2026-12-25T09:00:00Z'));
    expect(xmas.isOpen).toBe(false);
    expect(iso(xmas.nextChange)).toBe('2026-12-28T08:00:00.000Z');
    // The same date a year later is an ordinary Saturday... and 25 December 2027 is a Saturday: use 2028 (Monday).
    expect(officeState(h, PARIS, at('2028-12-25T09:00:00Z')).isOpen).toBe(true);
  });

  it('issue 26, point 7: an open exception on a closed day opens it with its periods', () => {
    const h = defaultOfficeHours();
    h.exceptions = [{ year: 2026, month: 11, mday: 29, periods: [['10:00', '12:00']], open: true }];
    const s = officeState(h, PARIS, at('2026-11-28T12:00:00Z'));
    expect(s.isOpen).toBe(false);
    expect(iso(s.nextChange)).toBe('2026-11-29T09:00:00.000Z');
    expect(iso(officeState(h, PARIS, at('2026-11-29T09:30:00Z')).nextChange)).toBe('2026-11-29T11:01:00.000Z');
  });

  it('issue 26, point 7: nextChange is null when the hours never flip within the horizon', () => {
    const always: OfficeHoursValue = { openhours: Array.from({ length: 7 }, () => [['0']]), exceptions: [] };
    expect(officeState(always, PARIS, at('2026-03-29T00:30:00Z'))).toEqual({ isOpen: true, nextChange: null });
    const never: OfficeHoursValue = { openhours: Array.from({ length: 7 }, () => []), exceptions: [] };
    expect(officeState(never, PARIS, at('2026-03-29T00:30:00Z'))).toEqual({ isOpen: false, nextChange: null });
    // Always open but for one exception day: the change is that day's start.
    always.exceptions = [{ year: 2027, month: 1, mday: 1, periods: [['0']], open: false }];
    expect(iso(officeState(always, PARIS, at('2026-12-31T12:00:00Z')).nextChange)).toBe('2026-12-31T23:00:00.000Z');
  });

  it('issue 26, point 7: periods that together cover every day never flip: nextChange null', () => {
    const h: OfficeHoursValue = {
      openhours: Array.from({ length: 7 }, () => [
        ['00:00', '12:00'],
        ['12:01', '23:59'],
      ]),
      exceptions: [{ year: 2027, month: 5, mday: 1, periods: [['0']], open: true }],
    };
    expect(officeState(h, PARIS, at('2026-11-21T08:00:00Z'))).toEqual({ isOpen: true, nextChange: null });
  });

  it('issue 26, point 7: a day open all day joins the next without a change at midnight', () => {
    const h: OfficeHoursValue = { openhours: [[], [['0']], [['0']], [], [], [], []], exceptions: [] };
    // Monday 2026-11-30 12:00 Paris: open until Wednesday 00:00.
    expect(iso(officeState(h, PARIS, at('2026-11-30T11:00:00Z')).nextChange)).toBe('2026-12-01T23:00:00.000Z');
  });
});

describe('office hours: validation (document 2, Office hours)', () => {
  const days = (d: unknown[]) => Array.from({ length: 7 }, (_, i) => d[i] ?? []);

  it('doc 2, office hours: seven day arrays starting with Sunday', () => {
    expect(problem(() => checkOpenhours([[], []])).field).toBe('openhours');
    expect(problem(() => checkOpenhours('x')).field).toBe('openhours');
    expect(checkOpenhours(days([[['0']]]))[0]).toEqual([['0']]);
  });

  it('doc 2, office hours: a period is ["HH:MM","HH:MM"] with start before end, or ["0"]; anything else names the day', () => {
    expect(problem(() => checkOpenhours(days([[], [['18:00', '09:00']]]))).field).toBe('openhours[1] (monday)[0]');
    expect(problem(() => checkOpenhours(days([[], [], [['9:00', '18:00']]]))).field).toBe('openhours[2] (tuesday)[0]');
    expect(problem(() => checkOpenhours(days([[], [], [], [['09:00', '24:00']]]))).field).toBe(
      'openhours[3] (wednesday)[0]',
    );
    expect(problem(() => checkOpenhours(days([['0']]))).field).toBe('openhours[0] (sunday)[0]');
    expect(problem(() => checkOpenhours(days([[['09:00', '09:00']]]))).reason).toBe('the start must be before the end');
    expect(problem(() => checkOpenhours(days([[['09:00', '10:00', '11:00']]]))).field).toBe('openhours[0] (sunday)[0]');
    expect(problem(() => checkOpenhours(days([[[9, 10]]]))).field).toBe('openhours[0] (sunday)[0]');
    expect(problem(() => checkOpenhours(days([[], [], [], [], [], [], 'x']))).field).toBe('openhours[6] (saturday)');
  });

  it('doc 2, office hours: exceptions {year, month 1-12, mday 1-31 a real date, periods, open}', () => {
    const ok = { year: 2026, month: 12, mday: 25, periods: [['0']], open: false };
    expect(checkExceptions([ok])).toEqual([ok]);
    // Numbers as strings are accepted; a non-open exception is the whole day.
    expect(checkExceptions([{ year: '2026', month: '12', mday: '25', open: 'false' }])).toEqual([ok]);
    expect(problem(() => checkExceptions([{ ...ok, month: 13 }])).field).toBe('exceptions[0].month');
    expect(problem(() => checkExceptions([{ ...ok, mday: 0 }])).field).toBe('exceptions[0].mday');
    expect(problem(() => checkExceptions([ok, { ...ok, year: 2027, month: 2, mday: 29 }])).field).toBe(
      'exceptions[1].mday',
    );
    expect(problem(() => checkExceptions([{ ...ok, month: 4, mday: 31 }])).reason).toContain('not a real date');
    expect(problem(() => checkExceptions([{ ...ok, open: 'maybe' }])).field).toBe('exceptions[0].open');
    expect(problem(() => checkExceptions([{ ...ok, periods: [['09:00', '10:00']] }])).field).toBe(
      'exceptions[0].periods',
    );
    expect(problem(() => checkExceptions([{ ...ok, open: true, periods: [] }])).field).toBe('exceptions[0].periods');
    expect(problem(() => checkExceptions([ok, ok])).field).toBe('exceptions[1]');
    expect(problem(() => checkExceptions([null])).field).toBe('exceptions[0]');
    expect(problem(() => checkExceptions([{ ...ok, year: 1.5 }])).field).toBe('exceptions[0].year');
  });
});
