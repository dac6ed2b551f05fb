// Issue 7, point 1: the service's clock is injected; CLOCK_FIXED freezes it and
// CLOCK_OFFSET_SECONDS shifts it, for demonstrations.
import { describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { loadConfig } from '../../src/config.ts';
import { serviceClock } from '../../src/clock.ts';

const machine = () => Date.parse('2026-11-23T08:00:00.000Z');

describe('service clock', () => {
  it("is the machine's time by default", () => {
    expect(serviceClock(loadConfig({}), machine)().toISOString()).toBe('2026-11-23T08:00:00.000Z');
  });

  it('stands still at CLOCK_FIXED', async () => {
    const now = serviceClock(loadConfig({ CLOCK_FIXED: '2026-06-15T00:00:00Z' }));
    const a = now();
    await new Promise((r) => setTimeout(r, 20));
    expect(a.toISOString()).toBe('2026-06-15T00:00:00.000Z');
    expect(now().getTime()).toBe(a.getTime());
  });

  it('runs CLOCK_OFFSET_SECONDS ahead of (or behind) the machine', () => {
    expect(serviceClock(loadConfig({ CLOCK_OFFSET_SECONDS: '86400' }), machine)().toISOString()).toBe(
      '2026-11-24T08:00:00.000Z',
    );
    expect(serviceClock(loadConfig({ CLOCK_OFFSET_SECONDS: '-3600' }), machine)().toISOString()).toBe(
      '2026-11-23T07:00:00.000Z',
    );
  });

  it('refuses malformed or contradictory settings with a message', () => {
    expect(() => loadConfig({ CLOCK_FIXED: 'next tuesday' })).toThrow(
      /CLOCK_FIXED="next tuesday" is not valid: expected an ISO 8601 date-time/,
    );
    expect(() => loadConfig({ CLOCK_OFFSET_SECONDS: '1.5' })).toThrow(
      /CLOCK_OFFSET_SECONDS="1.5" is not valid: expected an integer/,
    );
    expect(() => loadConfig({ CLOCK_FIXED: '2026-06-15T00:00:00Z', CLOCK_OFFSET_SECONDS: '60' })).toThrow(
      /exclude each other/,
    );
    expect(() => loadConfig({ XMPP_COMPONENT_URL: 'xmpp://127.0.0.1:5347' })).toThrow(/go together/);
  });
});
