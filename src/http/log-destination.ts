// Where the log lines go (docs/operations.md, Logs): standard output, written in blocks of up to
// 4 KB instead of one write per line. At the default level a request writes one line: one
// system call per answer cost about as much as writing the answer itself (issue 24, point 5).
// Lines wait at most FLUSH_MS before they are written, so a quiet service's lines still show at
// once; pino writes what is left when the process exits (its exit handler for async destinations).
import pino from 'pino';

// Not larger: sonic-boom measures the bytes of its whole pending block on every line, so 32 KB
// blocks cost more in that measure (7 µs a line) than they saved in writes (a CPU profile of
// getUser under load, 2026-11-29).
const BLOCK_BYTES = 4096;
const FLUSH_MS = 200;

export function logDestination(): pino.DestinationStream {
  const dest = pino.destination({ dest: 1, minLength: BLOCK_BYTES, sync: false });
  setInterval(() => dest.flush(), FLUSH_MS).unref();
  return dest;
}
