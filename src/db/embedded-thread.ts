// The embedded database's thread, started before the service is loaded. Opening PGlite costs its
// thread some 0.7 s of CPU (its code loaded, its WebAssembly compiled, its files read) before the
// first statement; started first thing by `npm start` (src/main.ts), that work runs on the other
// core while the service's own code loads, instead of after it. The database's client
// (src/db/embedded-client.ts) takes the thread so started, or starts one.
import { Worker } from 'node:worker_threads';

const STARTED = Symbol.for('svc-admin.embedded-database-thread');
type Holder = { [STARTED]?: Worker };

/** Starts the thread of `file` (the bundled or the TypeScript worker) and keeps it for the client. */
export function startEmbeddedThread(file: URL): void {
  const holder = globalThis as Holder;
  if (holder[STARTED]) return;
  const worker = new Worker(file);
  // Nothing holds the process open for it until the client takes it.
  worker.unref();
  holder[STARTED] = worker;
  // A thread that fails before the client takes it is not handed over: the client starts its own,
  // whose failure it sees (an 'error' without a listener would end the process here instead).
  const gone = () => {
    if (holder[STARTED] === worker) delete holder[STARTED];
  };
  worker.once('error', gone);
  worker.once('exit', gone);
}

/** The thread started by startEmbeddedThread, once: a second database opens its own. */
export function takeEmbeddedThread(): Worker | undefined {
  const holder = globalThis as Holder;
  const worker = holder[STARTED];
  delete holder[STARTED];
  return worker;
}
