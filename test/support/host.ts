// Runs the test files named on its command line one after another in this one process, each as a
// suite of its own named after the file (scripts/test.ts starts it). A file's top-level hooks
// (`before`, `after`) then belong to its suite and run around its own tests only, as they do when
// the file has a process of its own; what the files share is what a process pays once: Node's
// start, the service's modules loaded and compiled, the migrated database's dump read, the
// OpenAPI document and its validators (docs/decisions.md, Test runner).
import { describe } from 'node:test';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// Node builds every suite as soon as it is declared, and the file must be imported right there
// (before any await) for its tests and hooks to be the suite's: the files are loaded side by side.
// Two of them requiring the same ES module from CommonJS at the same moment would fail
// (ERR_REQUIRE_ESM_RACE_CONDITION: @fastify/static requiring content-disposition), so what they
// all load, the service and the test harness, is loaded first. Their tests run in this order,
// one file at a time.
await import('./harness.ts');
for (const file of process.argv.slice(2)) describe(file, () => import(pathToFileURL(resolve(file)).href));
