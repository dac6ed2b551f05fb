// The images computed at sizes other than the stored ones (document 3: every size is answered
// exactly), kept in the memory of the process, bounded by their total bytes (IMAGE_SIZE_CACHE_MB):
// the least recently served are dropped first, so a flood of distinct sizes costs at most that
// memory and no storage (docs/decisions.md, Bounds of images, sessions and client authentication).
import { LRUCache } from 'lru-cache';

/** One image is at most this share of the cache, so that a single large banner does not empty it. */
const ENTRY_SHARE = 4;
/**
 * Counted for each image beside its bytes and its key: the Buffer object and the cache's own records
 * (an estimate), so that a flood of tiny images is bounded in number too.
 */
const ENTRY_OVERHEAD = 256;

const caches = new Map<number, LRUCache<string, Buffer>>();

/**
 * The process's cache of computed sizes of at most `maxBytes` (images, keys and their overhead). One
 * per process, as the decode limit; by budget, as a process runs one configuration (test processes run
 * several applications).
 */
export function sizeCache(maxBytes: number): LRUCache<string, Buffer> {
  let cache = caches.get(maxBytes);
  if (!cache) {
    cache = new LRUCache<string, Buffer>({
      maxSize: maxBytes,
      maxEntrySize: Math.max(1, Math.floor(maxBytes / ENTRY_SHARE)),
      sizeCalculation: (data, key) => data.length + key.length + ENTRY_OVERHEAD,
    });
    caches.set(maxBytes, cache);
  }
  return cache;
}

/** The key of an image: its company, kind and size, and the update date of its original (a new original misses). */
export const sizeKey = (companyId: string, kind: string, size: number, updatedAt: Date) =>
  `${companyId}/${kind}/${size}/${updatedAt.getTime()}`;
