// Issue 25, point 12 (docs/decisions.md, Performance, "Answers computed once for many askers"):
// an answer remembered at a list version (src/db/list-count.ts) is computed once when many requests
// ask it at the same version at the same moment, and again for another version.
import { describe, it } from 'node:test';
import { expect } from '../support/expect.ts';
import { rememberedAt } from '../../src/db/list-count.ts';

describe('answers remembered at a version', () => {
  it('20 requests asking the same answer at the same version while it is computed share one computation', async () => {
    let computed = 0;
    const compute = async () => {
      computed++;
      await new Promise((r) => setTimeout(r, 20));
      return { page: computed };
    };
    const key = `shared-${Math.random()}`;
    const answers = await Promise.all(Array.from({ length: 20 }, () => rememberedAt(key, '7', compute)));
    expect(computed).toBe(1);
    expect(new Set(answers).size).toBe(1);
    // Remembered: asked again at the same version, it is not computed again.
    await rememberedAt(key, '7', compute);
    expect(computed).toBe(1);
    // Another version (something was written): computed again, once for all its askers.
    const later = await Promise.all(Array.from({ length: 5 }, () => rememberedAt(key, '8', compute)));
    expect(computed).toBe(2);
    expect(later.every((a) => a.page === 2)).toBe(true);
  });

  it('without a version each request computes its own answer, and a failed computation is not shared later', async () => {
    let computed = 0;
    const key = `unversioned-${Math.random()}`;
    await Promise.all(Array.from({ length: 3 }, () => rememberedAt(key, undefined, async () => ++computed)));
    expect(computed).toBe(3);
    const failing = `failing-${Math.random()}`;
    await expect(
      rememberedAt(failing, '1', async () => {
        throw new Error('database gone');
      }),
    ).rejects.toThrow('database gone');
    expect(await rememberedAt(failing, '1', async () => 'back')).toBe('back');
  });
});
