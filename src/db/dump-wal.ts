// A dump of the embedded database without the WAL it does not need (docs/decisions.md, Performance,
// "Dumps without spare WAL"). PGlite's dump holds the data folder whole, its WAL segments at their
// full 16 MB each, though after a checkpoint PostgreSQL reads only from the checkpoint's record on.
// `dumpEmbedded` (src/db/client.ts) first switches to a new segment and checkpoints, so that the
// checkpoint's record opens a fresh segment; this drops every other segment from the tarball and
// cuts that one after the pages written. PostgreSQL opened from it reads the checkpoint, finds the
// end of its WAL in the next record (zeros, or the end of the file) as after any stop, and writes
// on from there, the file growing as it writes. A made database of 28.5 MB became 12 MB, and a test
// file's database opened with a fifth less CPU (2026-12-02).

/** The size of a block of a tarball (POSIX ustar): headers and data take whole blocks. */
const BLOCK = 512;
/** PostgreSQL's WAL page (XLOG_BLCKSZ): the segment is kept in whole pages. */
const WAL_PAGE = 8192;

const field = (header: Uint8Array, at: number, length: number): string =>
  new TextDecoder().decode(header.subarray(at, at + length)).replace(/\0.*$/s, '');

/** The entry's path: its `prefix` (ustar, offset 345) then its `name` (offset 0). */
function entryName(header: Uint8Array): string {
  const prefix = field(header, 345, 155);
  const name = field(header, 0, 100);
  return prefix ? `${prefix}/${name}` : name;
}

/** Writes `size` into the header, as ustar's octal field (offset 124), and its checksum again (offset 148). */
function setSize(header: Uint8Array, size: number): void {
  header.set(new TextEncoder().encode(`${size.toString(8).padStart(11, '0')}\0`), 124);
  header.fill(0x20, 148, 156); // the checksum is computed with its own field as spaces
  const sum = header.reduce((a, b) => a + b, 0);
  header.set(new TextEncoder().encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
}

/** An entry of a tarball: its header block, path, size and where its header starts. */
export interface TarEntry {
  header: Uint8Array<ArrayBuffer>;
  name: string;
  size: number;
  at: number;
  /** The bytes of its data, whole blocks. */
  dataBlocks: number;
}

/** The entries of a tarball in order, up to its end (a zero block). */
export function* tarEntries(tar: Uint8Array<ArrayBuffer>): Generator<TarEntry> {
  for (let at = 0; at + BLOCK <= tar.length;) {
    const header = tar.slice(at, at + BLOCK);
    if (header.every((b) => b === 0)) return; // the end: two zero blocks
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const dataBlocks = Math.ceil(size / BLOCK) * BLOCK;
    yield { header, name: entryName(header), size, at, dataBlocks };
    at += BLOCK + dataBlocks;
  }
}

/** Whether a tarball's entry is a WAL segment (a file of pg_wal named by its 24 hexadecimal digits). */
export const isWalSegment = (name: string): boolean => /(^|\/)pg_wal\/[0-9A-F]{24}$/.test(name);

/**
 * The tarball `tar` without the WAL segments other than `segment` (a file name of pg_wal, the one
 * the checkpoint's record opens), that one cut after `offset` bytes rounded up to a whole page.
 * Entries are copied as they are otherwise.
 */
export function withWalFrom(tar: Uint8Array<ArrayBuffer>, segment: string, offset: number): Uint8Array<ArrayBuffer> {
  const keep = Math.max(WAL_PAGE, Math.ceil(offset / WAL_PAGE) * WAL_PAGE);
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let found = false;
  for (const { header, name, size, at, dataBlocks } of tarEntries(tar)) {
    const wal = isWalSegment(name);
    if (wal && name.endsWith(`/${segment}`) && size >= keep) {
      found = true;
      setSize(header, keep);
      parts.push(header, tar.subarray(at + BLOCK, at + BLOCK + keep));
    } else if (!wal) {
      parts.push(tar.subarray(at, at + BLOCK + dataBlocks));
    }
  }
  // Without its checkpoint's segment the dump would not open: the tarball is kept whole then.
  if (!found) return tar;
  parts.push(new Uint8Array(2 * BLOCK));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
