// Identifiers (src/shared/ids.ts): the shape of the original interface (24 hex characters), in
// creation order within an instance (a key index takes new rows at its right end: the import's
// rate, issue 27, point 8), and not guessable from one another (tenants never see each other's
// data: docs/decisions.md, Performance, "Identifiers in creation order").
import { describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { newId } from '../../src/shared/ids.ts';

describe('identifiers', () => {
  it('are 24 hex characters, all distinct, ascending in the order they are made', () => {
    const ids = Array.from({ length: 100_000 }, () => newId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{24}$/);
    expect(new Set(ids).size).toBe(ids.length);
    // Ascending but where the 24-bit counter wraps (at most once in 100,000).
    const descents = ids.filter((id, i) => i > 0 && id <= ids[i - 1]).length;
    expect(descents).toBeLessThanOrEqual(1);
  });

  it("begin with the second they are made, as the original interface's do", () => {
    const before = Math.floor(Date.now() / 1000);
    const seconds = parseInt(newId().slice(0, 8), 16);
    expect(seconds).toBeGreaterThanOrEqual(before);
    expect(seconds).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it('carry 40 random bits: the next one cannot be told from the last', () => {
    const ids = Array.from({ length: 1000 }, () => newId());
    const tails = new Set(ids.map((id) => id.slice(14)));
    expect(tails.size).toBe(ids.length);
    // Successive identifiers differ in their random part by more than a step.
    const steps = ids.slice(1).filter((id, i) => parseInt(id.slice(14), 16) === parseInt(ids[i].slice(14), 16) + 1);
    expect(steps.length).toBe(0);
  });
});
