// Issue 24, point 4 (resident memory after 10,000 requests under 300 MB embedded): memory the
// process freed goes back to the system (src/memory-trim.ts; docs/decisions.md, Performance,
// "Freed pages handed back to the system"). glibc keeps the pages of freed blocks that are not at
// the top of its heap; only malloc_trim gives them back.
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from '../support/expect.ts';
import { startMemoryTrim } from '../../src/memory-trim.ts';
import { loadConfig } from '../../src/config.ts';

const rssMb = () => process.memoryUsage().rss / 1048576;

setFlagsFromString('--expose-gc');
const gc: unknown = runInNewContext('gc');
const collect = () => (typeof gc === 'function' ? gc() : undefined);

describe('issue 24, point 4: freed memory handed back to the system', () => {
  it('hands back the pages of freed blocks that glibc kept (this machine runs glibc)', async () => {
    const trimmer = startMemoryTrim({ firstMs: 3_600_000, everyMs: 0 });
    try {
      // 80 MB of C-heap blocks (Buffers of 1 kB are malloc'd, under the mmap threshold), all freed
      // but the last, which keeps the heap's top in place so that free() alone returns nothing.
      let blocks: Buffer[] = [];
      for (let i = 0; i < 80_000; i++) blocks.push(Buffer.allocUnsafeSlow(1024).fill(1));
      const last = blocks[blocks.length - 1];
      blocks = [];
      for (let i = 0; i < 4; i++) {
        collect();
        await new Promise((r) => setImmediate(r));
      }
      const before = rssMb();
      expect(await trimmer.trim()).toBe(true);
      const after = rssMb();
      expect(last.length).toBe(1024);
      expect(before - after).toBeGreaterThan(40);
    } finally {
      trimmer.stop();
    }
  });

  it('is on by default every 10 s, and MEMORY_TRIM_SECONDS=0 turns it off', () => {
    expect(loadConfig({}).memoryTrimSeconds).toBe(10);
    expect(loadConfig({ MEMORY_TRIM_SECONDS: '0' }).memoryTrimSeconds).toBe(0);
  });
});
