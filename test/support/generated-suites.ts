// The generated suites (the authorisation matrix, the tenant isolation test, the schema fuzz)
// send thousands of requests whose statements are the same on both engines (PGlite is
// PostgreSQL's own code). To keep a whole CI run within its 30 minutes, .ci/run runs them once,
// on the embedded pass, and sets SVC_GENERATED_SUITES=embedded for its PostgreSQL pass (README,
// Test). Run by hand with TEST_DATABASE_URL and without that variable, they run there too.
export const SKIP_GENERATED: string | false =
  process.env.SVC_GENERATED_SUITES === 'embedded' && process.env.TEST_DATABASE_URL
    ? 'runs once, on the embedded pass of .ci/run (SVC_GENERATED_SUITES=embedded)'
    : false;

/**
 * Suites whose subject is not the database engine (the bundle, signals, image bounds, the XMPP
 * server end to end): on the PostgreSQL pass of .ci/run they are skipped the same way, for the same
 * 30 minutes; the embedded pass runs them.
 */
export const SKIP_ENGINE_FREE: string | false =
  process.env.SVC_GENERATED_SUITES === 'embedded' && process.env.TEST_DATABASE_URL
    ? 'independent of the database engine: runs on the embedded pass of .ci/run (SVC_GENERATED_SUITES=embedded)'
    : false;
