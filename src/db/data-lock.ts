// The embedded database's folder belongs to one process at a time (docs/operations.md, The embedded database
// and its data folder): PGlite has no postmaster lock of its own, and two processes writing one folder
// corrupt it. The lock is a file created exclusively in the folder, naming its holder; a lock whose process is gone
// (a crash, a kill -9) is taken over.
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export class DataDirLocked extends Error {
  constructor(dir: string, holder: string) {
    super(`the data folder ${dir} is in use by ${holder}; stop that process first (or use another DATA_DIR)`);
    this.name = 'DataDirLocked';
  }
}

interface Holder {
  pid: number;
  host: string;
  since: string;
}

function alive(h: Holder): boolean {
  if (h.host !== hostname()) return true; // another machine's process cannot be checked: assume it runs
  try {
    process.kill(h.pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the folder's lock or throws DataDirLocked; the returned function releases it. */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'svc-admin.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(
        fd,
        JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() } satisfies Holder),
      );
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: Holder | undefined;
    try {
      holder = JSON.parse(readFileSync(file, 'utf8')) as Holder;
    } catch {
      // Being written (looked at again) or left half-written by a crash (older than a few seconds).
      const age = Date.now() - (statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 5000) rmSync(file, { force: true });
      continue;
    }
    if (alive(holder)) throw new DataDirLocked(dir, `process ${holder.pid} on ${holder.host} (since ${holder.since})`);
    rmSync(file, { force: true }); // its process is gone
  }
  throw new DataDirLocked(dir, `another process (lock file ${file})`);
}
