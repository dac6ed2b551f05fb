// The service bundled into one JavaScript file (.build/service.mjs), which `npm start` runs when
// it is at least as new as every file it was built from (docs/decisions.md, Performance, "Start of the service").
// The manifest beside it (service.json) lists the files it was made from, with their times and sizes.
//
// Run from its sources, the service loads some 2,000 modules (its own files and its packages'),
// and Node resolves, reads and compiles each one; bundled, it loads one file and the few packages
// left outside. Measured on this machine: about 0.7 s less from start to first answer, and less
// memory for the modules' code (docs/decisions.md, Performance). The bundle is plain JavaScript
// made by esbuild, a dependency of the service: `npm ci` builds it (the `prepare` script), and a
// start that finds it older than its sources builds it again first. When it cannot be built (a
// read-only folder, say), the service runs from its sources as it always could.
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative } from 'node:path';
import { field, isRecord } from './shared/json-values.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * Where `npm start` finds the bundle. Another folder may be given (tests): it must lie inside the
 * project, for the packages left outside are found in its node_modules.
 */
export const BUILD_DIR = join(ROOT, '.build');

export const bundleFile = (dir = BUILD_DIR) => join(dir, 'service.mjs');
/** The embedded database's thread (src/db/embedded-worker.ts), bundled beside the service. */
export const workerBundleFile = (dir = BUILD_DIR) => join(dir, 'embedded-worker.mjs');
const manifestFile = (dir: string) => join(dir, 'service.json');

/**
 * Packages left outside the bundle, loaded from node_modules at run time: native code (sharp,
 * argon2, koffi), packages that read files of their own beside their code (PGlite's WebAssembly and
 * data files, pdfkit's and fontkit's font data, swagger-ui's pages), and pg's optional native
 * binding.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'koffi',
  'sharp',
  'pdfkit',
  'fontkit',
  '@embedpdf/*',
  '@fastify/swagger-ui',
  'pg-native',
];

/** Each file the bundle was made from, with its modification time and size when it was made. */
type Manifest = { inputs: Record<string, [number, number]> };

function stamp(file: string): [number, number] {
  const s = statSync(file);
  return [s.mtimeMs, s.size];
}

/** True when the bundle exists and no file it was made from (nor this file) changed since. */
export function bundleIsFresh(dir = BUILD_DIR): boolean {
  try {
    const inputs = field(JSON.parse(readFileSync(manifestFile(dir), 'utf8')), 'inputs');
    if (!isRecord(inputs)) return false;
    statSync(bundleFile(dir));
    statSync(workerBundleFile(dir));
    for (const [file, recorded] of Object.entries(inputs)) {
      const [m, s] = stamp(join(ROOT, file));
      if (!Array.isArray(recorded) || m !== recorded[0] || s !== recorded[1]) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes the characters above U+007F that esbuild's `charset: 'ascii'` left as they are (those of
 * regular expression literals: music-metadata's FourCC pattern holds a ©) as \u escapes, which
 * mean the same in a string, a template, a regular expression and a name: the bundle stays ASCII.
 */
function escapeNonAscii(file: string): void {
  const text = readFileSync(file, 'utf8');
  if (!/[\u0080-\uffff]/.test(text)) return;
  writeFileSync(
    file,
    text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/**
 * Builds the bundle. Written beside under a name of this process, then renamed: a start running
 * at the same time reads either the old files or the new ones, never half a file. The manifest is
 * renamed last, so a manifest always describes a bundle at least as new as itself.
 */
export async function buildBundle(dir = BUILD_DIR): Promise<void> {
  const esbuild = await import('esbuild');
  const started = Date.now();
  mkdirSync(dir, { recursive: true });
  const build = (entry: string, out: string) =>
    esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: [entry],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      external: EXTERNAL,
      // Read by src/shared/source-root.ts: files beside the sources are found from the bundle's folder.
      define: { SVC_SOURCES: JSON.stringify(`${relative(dir, join(ROOT, 'src'))}/`) },
      // Packages written as CommonJS call require() for Node's own modules: an ES module has none.
      banner: {
        js: "import { createRequire as svcCreateRequire } from 'node:module'; const require = svcCreateRequire(import.meta.url);",
      },
      // ASCII only (other characters written as escapes): V8 holds such a source at one byte a
      // character, a source with any character above U+00FF at two.
      charset: 'ascii',
      // Less text to read and keep in memory; names are kept so that stack traces stay readable.
      // SVC_BUNDLE_READABLE=1 (for CPU profiles, README "Profiling"): one statement a line and each
      // module's path above its code, so that a profile's line numbers name the source file.
      minifyWhitespace: process.env.SVC_BUNDLE_READABLE !== '1',
      minifySyntax: true,
      legalComments: 'none',
      metafile: true,
      logLevel: 'silent',
    });
  const tmp = `${bundleFile(dir)}.${process.pid}.tmp`;
  const workerTmp = `${workerBundleFile(dir)}.${process.pid}.tmp`;
  // The database's thread as JavaScript too: from its TypeScript source, each start of the thread
  // loaded Node's type stripper into it first.
  const [result, worker] = await Promise.all([
    build('src/serve.ts', tmp),
    build('src/db/embedded-worker.ts', workerTmp),
  ]);
  for (const file of [tmp, workerTmp]) escapeNonAscii(file);
  const inputs: Manifest['inputs'] = {};
  for (const file of [
    ...Object.keys(result.metafile.inputs),
    ...Object.keys(worker.metafile.inputs),
    relative(ROOT, fileURLToPath(import.meta.url)),
  ]) {
    if (!file.includes(':')) inputs[file] = stamp(join(ROOT, file));
  }
  renameSync(workerTmp, workerBundleFile(dir));
  renameSync(tmp, bundleFile(dir));
  // A file changed while esbuild ran may be in the bundle as it was before: no manifest, so the
  // next start builds again.
  if (Object.values(inputs).some(([mtime]) => mtime >= started)) return;
  const manifestTmp = `${manifestFile(dir)}.${process.pid}.tmp`;
  writeFileSync(manifestTmp, JSON.stringify({ inputs } satisfies Manifest));
  renameSync(manifestTmp, manifestFile(dir));
}
