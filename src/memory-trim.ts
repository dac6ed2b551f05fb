// Freed C memory handed back to the system (issue 24, point 4: resident memory after 10,000
// requests under 300 MB embedded). glibc's malloc keeps the pages of freed blocks inside its heaps
// and returns only a heap's top, past MALLOC_TRIM_THRESHOLD_. The embedded database's start
// compiles PGlite's WebAssembly (a peak of some 800 MB of compiler zones) and the first requests
// compile more of it: those blocks are freed, but 20 to 25 MB of their pages stayed resident in the
// middle of the heaps. malloc_trim(0) releases every whole free page of every arena. Node has no
// binding for it: it is called through koffi (a C FFI library), on a thread of koffi's pool so that
// the event loop does not wait for it. Where the C library is not glibc, nothing is done.
// docs/decisions.md, Performance, "Freed pages handed back to the system".

export interface MemoryTrim {
  /** Hands the free pages back now; false where this cannot be done (not glibc, or koffi missing). */
  trim(): Promise<boolean>;
  stop(): void;
}

type AsyncTrim = (pad: number, done: (err: unknown, result: number) => void) => void;

function onGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const header: unknown = Reflect.get(process.report.getReport(), 'header');
  return typeof header === 'object' && header !== null && Boolean(Reflect.get(header, 'glibcVersionRuntime'));
}

async function glibcTrim(): Promise<AsyncTrim | undefined> {
  if (!onGlibc()) return undefined;
  try {
    // Native code, loaded once the service is up and kept outside the bundle (src/bundle.ts).
    const koffi = await import('koffi');
    const fn = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)');
    return (pad, done) => void fn.async(pad, done);
  } catch {
    return undefined;
  }
}

/** Trims `firstMs` after it is called (once the start has settled), then every `everyMs` (0: never again). */
export function startMemoryTrim(o: { firstMs: number; everyMs: number }): MemoryTrim {
  // Looked for at the first trim, not at the call: the C library's report (some 10 ms) and koffi's
  // loading would otherwise take the service's thread just as it starts listening.
  let loaded: Promise<AsyncTrim | undefined> | undefined;
  let running: Promise<boolean> | undefined;
  const trim = async (): Promise<boolean> => {
    const fn = await (loaded ??= glibcTrim());
    if (!fn) return false;
    running ??= new Promise<boolean>((resolve) =>
      fn(0, (err) => {
        running = undefined;
        resolve(!err);
      }),
    );
    return running;
  };
  const timers: NodeJS.Timeout[] = [];
  const first = setTimeout(() => {
    void trim();
    if (o.everyMs > 0) timers.push(setInterval(() => void trim(), o.everyMs).unref());
  }, o.firstMs);
  timers.push(first.unref());
  return { trim, stop: () => timers.forEach((t) => clearTimeout(t)) };
}
