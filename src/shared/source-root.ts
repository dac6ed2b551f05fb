// The folder of the sources (src/), whether they run as they are or bundled (src/bundle.ts):
// files the service reads at run time (the migrations) are found from here, never from the URL of
// the module that reads them, which a bundle changes. The bundle defines SVC_SOURCES, the path
// from its own folder to the sources.
declare const SVC_SOURCES: string | undefined;

/** True when this code runs from the bundle. */
export const BUNDLED = typeof SVC_SOURCES === 'string';

export const SOURCE_ROOT: URL = BUNDLED ? new URL(SVC_SOURCES!, import.meta.url) : new URL('../', import.meta.url);
