// Node's ES module loader reads a package's package.json for every file it loads from it, and
// drizzle-orm's is 180 kB (an exports entry per file): importing drizzle's ES build cost about
// 0.8 s of CPU and 160 MB of heap at start, its CommonJS build 0.1 s and 14 MB. This resolve hook
// gives drizzle-orm and PGlite (which drizzle's CommonJS build requires: one instance of each)
// their CommonJS builds. Node 22.15+ and 24 have registerHooks; older ones load the ES builds.
import module from 'node:module';

const COMMONJS_PACKAGES = /^(drizzle-orm|@electric-sql\/pglite)(\/|$)/;

/**
 * Node's on-disk cache of compiled code (in the system's temporary folder): later starts skip
 * compiling the service's few thousand modules again.
 */
export function enableCompileCache(): void {
  module.enableCompileCache?.();
}

/** The service's own files: they all find their packages in the same node_modules. */
const SOURCES = new URL('./', import.meta.url).href;

export function preferCommonJsBuilds(): void {
  if (typeof module.registerHooks !== 'function') return;
  // Node's ES resolver caches by specifier and importing file, so each of the ~100 source files
  // that import drizzle-orm had its 180 kB package.json exports parsed again (about 0.3 s of the
  // start). From the service's sources a specifier always resolves to the same file: remembered.
  const fromSources = new Map<string, module.ResolveFnOutput>();
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      if (!COMMONJS_PACKAGES.test(specifier)) return nextResolve(specifier, context);
      const own = context.parentURL?.startsWith(SOURCES) === true;
      const known = own ? fromSources.get(specifier) : undefined;
      if (known) return { ...known, shortCircuit: true };
      const resolved = nextResolve(specifier, {
        ...context,
        conditions: [...context.conditions.filter((c) => c !== 'import'), 'require'],
      });
      if (own) fromSources.set(specifier, resolved);
      return resolved;
    },
  });
}
