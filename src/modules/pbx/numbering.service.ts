// A CloudPBX's numbering plan (document 2, CloudPBX `numberingPrefixes`, `numberingDigits`;
// Numbering plan; issue 25, point 2): a prefix p with d digits allows the internal numbers made of
// p followed by exactly d digits (prefixes ["2"], digits 3: 2000 to 2999). Decisions in
// docs/decisions.md, "CloudPBX: subscribers and the numbering plan".
import type { Page } from '../../http/paging.ts';
import type { Executor } from '../../db/client.ts';
import type { CloudPbxRow } from './pbx.repo.ts';
import * as repo from './numbering.repo.ts';

/** The largest number a subscriber can hold (pbx_subscribers.short_number_value is an integer). */
export const MAX_SHORT_NUMBER = 2_147_483_647;

interface Plan {
  prefixes: string[];
  digits: number | null;
}
const planOf = (pbx: Pick<CloudPbxRow, 'numberingPrefixes' | 'numberingDigits'>): Plan => ({
  prefixes: pbx.numberingPrefixes,
  digits: pbx.numberingDigits,
});

/** The range of one prefix: [p·10^d, p·10^d + 10^d − 1] (BigInt: a prefix and its digits may pass 2^53). */
function rangeOf(prefix: string, digits: number): { lo: bigint; hi: bigint } {
  const size = 10n ** BigInt(digits);
  const lo = BigInt(prefix) * size;
  return { lo, hi: lo + size - 1n };
}

/** Document 2, Numbering plan `ranges`: one per prefix, in the prefixes' order (none without digits). */
export function rangesOf(pbx: Pick<CloudPbxRow, 'numberingPrefixes' | 'numberingDigits'>) {
  const { prefixes, digits } = planOf(pbx);
  if (digits === null) return [];
  return prefixes.map((p) => {
    const r = rangeOf(p, digits);
    return { first: Number(r.lo), last: Number(r.hi) };
  });
}

/**
 * Whether `shortNumber` (digits) is a number of the plan: some prefix followed by exactly
 * `digits` digits, and small enough to be stored (MAX_SHORT_NUMBER).
 */
export function inPlan(pbx: Pick<CloudPbxRow, 'numberingPrefixes' | 'numberingDigits'>, shortNumber: string): boolean {
  const { prefixes, digits } = planOf(pbx);
  if (digits === null || !/^[0-9]+$/.test(shortNumber)) return false;
  if (Number(shortNumber) > MAX_SHORT_NUMBER) return false;
  return prefixes.some((p) => shortNumber.length === p.length + digits && shortNumber.startsWith(p));
}

/**
 * The part of a prefix's range whose numbers' digits start with `startingWith` (the number
 * written as the prefix and its d digits), or undefined when none does.
 */
function startingWithin(prefix: string, digits: number, startingWith: string): { lo: bigint; hi: bigint } | undefined {
  if (startingWith.length <= prefix.length)
    return prefix.startsWith(startingWith) ? rangeOf(prefix, digits) : undefined;
  if (!startingWith.startsWith(prefix)) return undefined;
  const rest = startingWith.slice(prefix.length);
  if (rest.length > digits) return undefined;
  const size = 10n ** BigInt(digits - rest.length);
  const lo = BigInt(prefix) * 10n ** BigInt(digits) + BigInt(rest) * size;
  return { lo, hi: lo + size - 1n };
}

/** The ranges to search, clamped to storable numbers, sorted and merged (two prefixes may overlap). */
export function searchRanges(
  pbx: Pick<CloudPbxRow, 'numberingPrefixes' | 'numberingDigits'>,
  startingWith: string,
): { lo: number; hi: number }[] {
  const { prefixes, digits } = planOf(pbx);
  if (digits === null) return [];
  const max = BigInt(MAX_SHORT_NUMBER);
  const parts = prefixes
    .map((p) => startingWithin(p, digits, startingWith))
    .filter((r): r is { lo: bigint; hi: bigint } => r !== undefined && r.lo <= max)
    .map((r) => ({ lo: Number(r.lo), hi: Number(r.hi < max ? r.hi : max) }))
    .sort((a, b) => a.lo - b.lo);
  const merged: { lo: number; hi: number }[] = [];
  for (const r of parts) {
    const last = merged.at(-1);
    if (last && r.lo <= last.hi + 1) last.hi = Math.max(last.hi, r.hi);
    else merged.push({ ...r });
  }
  return merged;
}

/** Routes.md listFreeInternalNumbers: limit default 100, at most 1000; a non-numeric value: the default. */
export function freeLimitOf(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < 0) return 100;
  return Math.min(n, 1000);
}

/** Document 2, list free internal numbers: `[integer]`, ascending, never a number of a subscriber or a group. */
export function freeInternalNumbers(
  exec: Executor,
  pbx: CloudPbxRow,
  query: { startingWith?: string | number; limit?: unknown },
): Promise<number[]> {
  const startingWith = query.startingWith === undefined ? '' : String(query.startingWith);
  return repo.freeNumbers(exec, pbx.id, searchRanges(pbx, startingWith), freeLimitOf(query.limit));
}

/**
 * Document 2, Numbering plan: the ranges and the allocated numbers: subscribers, groups holding a
 * number (issue 26, point 1), and devices assigned to a subscriber, with its number.
 */
export async function numberingPlan(exec: Executor, pbx: CloudPbxRow, page?: Page) {
  const [subscribers, groups, devices, totals] = await Promise.all([
    repo.allocatedSubscribers(exec, pbx.id, page),
    repo.allocatedGroups(exec, pbx.id, page),
    repo.allocatedDevices(exec, pbx.id, page),
    // A page says how many numbers each list holds in all (issue 28, point 9); the whole plan
    // (every client of the original interface) is answered as document 2 shows it.
    page ? repo.allocatedTotals(exec, pbx.id) : undefined,
  ]);
  const plan = { ranges: rangesOf(pbx), allocatedNumbers: { subscribers, groups, devices } };
  return page && totals ? { ...plan, allocatedTotals: totals, limit: page.limit, offset: page.offset } : plan;
}
