// Where the log lines go (docs/operations.md, Logs): standard output, written in blocks of up to
// 4 KB instead of one write per line. At the default level a request writes one line: one
// system call per answer cost about as much as writing the answer itself (issue 24, point 5).
// Lines wait at most FLUSH_MS before they are written, so a quiet service's lines still show at
// once, and what is pending is written when the process exits.
//
// The blocks are written synchronously, as pino does by default. Written asynchronously (pino's
// `sync: false`), each block went to a thread of libuv's pool and came back through the event
// loop: getCompany `full` under load cost 11 to 30 µs more CPU a request that way (three rounds
// of two services side by side, 2026-12-02; docs/decisions.md, Logs written synchronously).
// A block is one write of at most 4 KB into the pipe or file of standard output.
import pino from 'pino';

// Not larger: sonic-boom measures the bytes of its whole pending block on every line, so 32 KB
// blocks cost more in that measure (7 µs a line) than they saved in writes (a CPU profile of
// getUser under load, 2026-11-29).
const BLOCK_BYTES = 4096;
const FLUSH_MS = 200;

export function logDestination(): pino.DestinationStream {
  const dest = pino.destination({ dest: 1, minLength: BLOCK_BYTES, sync: true });
  setInterval(() => dest.flush(), FLUSH_MS).unref();
  // pino writes a pending block at exit only for its asynchronous destinations: this one's is
  // written here, on process.exit and on an uncaught error alike.
  process.on('exit', () => {
    try {
      dest.flushSync();
    } catch {
      // Standard output is gone (a closed pipe): nothing can be written anywhere.
    }
  });
  return dest;
}
