// Entry point of `npm start`. The service runs bundled (src/bundle.ts) when the bundle is as new
// as its sources, or can be made so; otherwise from its sources, after the module resolution hook
// (it must precede every import of the packages it redirects, hence the dynamic imports).
import { pathToFileURL } from 'node:url';
import { enableCompileCache, preferCommonJsBuilds } from './load-hooks.ts';
import { buildBundle, bundleFile, bundleIsFresh, workerBundleFile } from './bundle.ts';
import { startEmbeddedThread } from './db/embedded-thread.ts';
import { errorMessage } from './shared/json-values.ts';

async function bundleReady(): Promise<boolean> {
  if (bundleIsFresh()) return true;
  try {
    await buildBundle();
    return true;
  } catch (err) {
    process.stderr.write(
      `svc-admin: the bundle could not be built (${errorMessage(err).split('\n')[0]}); running from the sources\n`,
    );
    return false;
  }
}

enableCompileCache();
const bundled = await bundleReady();
// Without DATABASE_URL the database is the embedded one: its thread starts opening PGlite now, on
// the other core, while the service loads (src/db/embedded-thread.ts). It reads no setting and
// writes nothing: the data folder is opened once the settings are checked.
if (!process.env.DATABASE_URL)
  startEmbeddedThread(
    bundled ? pathToFileURL(workerBundleFile()) : new URL('./db/embedded-worker.ts', import.meta.url),
  );
if (bundled) {
  await import(pathToFileURL(bundleFile()).href);
} else {
  preferCommonJsBuilds();
  await import('./serve.ts');
}
