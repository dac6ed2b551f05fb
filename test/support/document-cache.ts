// The OpenAPI document against which every response of a test is checked
// (test/support/openapi-validator.ts), kept between the test processes of the same code.
//
// @fastify/swagger builds it from some four hundred routes, which cost each test process about
// half a second of CPU on this machine (0.44 to 0.93 s measured on 2026-11-30, while CI ran), and
// each test file is a process of its own. The first process of a given code writes it to the
// temporary folder; the others read it. Its key is a hash of every file of src/, of the locked
// packages and of the test's settings, so any change of the code, of a package or of the settings
// makes it again. A file that cannot be read is made again; folders of other code older than an
// hour are removed when a new one is made.
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Json = Record<string, unknown>;

const ROOT = join(tmpdir(), 'svc-admin-test-openapi');
const HOUR_MS = 3_600_000;
const repository = new URL('../../', import.meta.url).pathname;

let codeHash: string | undefined;
/** A hash of every file under src/ (names and contents) and of package-lock.json. */
export function hashOfCode(): string {
  if (codeHash) return codeHash;
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) hash.update(path.slice(repository.length)).update(readFileSync(path));
    }
  };
  walk(join(repository, 'src'));
  hash.update(readFileSync(join(repository, 'package-lock.json')));
  codeHash = hash.digest('hex').slice(0, 16);
  return codeHash;
}

/** Folders of other code than this one, not written for an hour. */
function pruneOthers(keep: string): void {
  let names: string[];
  try {
    names = readdirSync(ROOT);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(ROOT, name);
    try {
      if (name !== keep && Date.now() - statSync(path).mtimeMs > HOUR_MS)
        rmSync(path, { recursive: true, force: true });
    } catch {
      // (another process removed it first)
    }
  }
}

/** The application's OpenAPI document, read from the cache when this code and settings made it already. */
export function documentOf(app: FastifyInstance, settings: unknown): Json {
  const code = hashOfCode();
  const key = createHash('sha256')
    .update(JSON.stringify(settings ?? null))
    .digest('hex')
    .slice(0, 16);
  const dir = join(ROOT, code);
  const file = join(dir, `${key}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Json;
  } catch {
    // not made yet for this code and these settings, or being replaced: made below
  }
  const doc = app.swagger() as unknown as Json;
  try {
    mkdirSync(dir, { recursive: true });
    pruneOthers(code);
    // Written aside then renamed: a process reading meanwhile reads a whole file or none.
    const aside = `${file}.${process.pid}`;
    writeFileSync(aside, JSON.stringify(doc));
    renameSync(aside, file);
  } catch {
    // A cache that cannot be written only costs the next process the same half second.
  }
  return doc;
}
