// The file store: invoice files (the invoicing module's CSV and PDF), import reports, audio of the
// hosted PBX (greetings, recordings), any large object the service keeps outside its tables. Keys
// are paths of '/'-separated segments. Large objects go through the stream methods (issue 26,
// point 8: the port reads and writes streams, never a whole file in memory); the buffer methods
// stay for small files.
import type { Readable } from 'node:stream';

export interface StoredFile {
  key: string;
  contentType: string;
  size: number;
  bytes: Buffer;
}

/** A stored file opened for reading: its bytes as a stream, the whole file's size. */
export interface OpenedFile {
  stream: Readable;
  /** Size of the whole file in bytes (not of the range read). */
  size: number;
  contentType: string;
}

/** Inclusive byte range, as HTTP Range gives it. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FilesPort {
  put(key: string, bytes: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<StoredFile | undefined>;
  /**
   * Writes a stream under a key: to a temporary name first, renamed once complete, so that a
   * failed stream or a crash leaves no half file under the key. Answers the size written. If the
   * stream fails, nothing is stored and its error is thrown.
   */
  putStream(key: string, stream: Readable, contentType: string): Promise<{ size: number }>;
  /** Opens a key for reading, the whole file or an inclusive byte range; undefined when absent. */
  openRead(key: string, range?: ByteRange): Promise<OpenedFile | undefined>;
  /** Size of a stored file; undefined when absent. */
  size(key: string): Promise<number | undefined>;
  /** Size and time of the last write of a stored file; undefined when absent (a sweep's grace period). */
  stat(key: string): Promise<{ size: number; modifiedAt: Date } | undefined>;
  delete(key: string): Promise<boolean>;
  /** Keys under a prefix, sorted. */
  list(prefix: string): Promise<string[]>;
}

/** Keys are relative paths of plain segments: no '..', no empty or absolute segment. */
export function validKey(key: string): boolean {
  return (
    key.length > 0 &&
    key.length <= 1024 &&
    key.split('/').every((s) => s !== '' && s !== '.' && s !== '..' && !/[\0\\]/.test(s))
  );
}
