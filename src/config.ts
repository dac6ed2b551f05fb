// Every setting of the service: its environment variable, its type and its default.
// The README's configuration table is written from this list; keep them together.

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  superadminEmail: string | undefined;
  superadminPassword: string | undefined;
  jwtTtlSeconds: number;
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  trustProxy: boolean;
  logLevel: string;
  bodyLimitBytes: number;
  loginMaxFailures: number;
  loginWindowSeconds: number;
  /** Requests per client address and window before 429; 0 turns the general limit off. */
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return n;
}

function opt(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

export function loadConfig(env: Env = process.env): Config {
  return {
    port: int(env, 'PORT', 8080),
    host: opt(env, 'HOST') ?? '127.0.0.1',
    dataDir: opt(env, 'DATA_DIR') ?? './data',
    databaseUrl: opt(env, 'DATABASE_URL'),
    superadminEmail: opt(env, 'SUPERADMIN_EMAIL'),
    superadminPassword: opt(env, 'SUPERADMIN_PASSWORD'),
    jwtTtlSeconds: int(env, 'JWT_TTL_SECONDS', 3600, 1),
    tlsCertFile: opt(env, 'TLS_CERT_FILE'),
    tlsKeyFile: opt(env, 'TLS_KEY_FILE'),
    trustProxy: env.TRUST_PROXY === 'true',
    logLevel: opt(env, 'LOG_LEVEL') ?? 'info',
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024),
    loginMaxFailures: int(env, 'LOGIN_MAX_FAILURES', 5, 1),
    loginWindowSeconds: int(env, 'LOGIN_WINDOW_SECONDS', 900, 1),
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', 1200, 0),
    rateLimitWindowSeconds: int(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1),
  };
}

/** The settings as the README's configuration table lists them (test/bootstrap.test.ts holds them together). */
export const SETTINGS: ReadonlyArray<[name: string, def: string, meaning: string]> = [
  ['PORT', '8080', 'TCP port of the API'],
  ['HOST', '127.0.0.1', 'address to listen on; plain HTTP only on loopback unless TLS or TRUST_PROXY'],
  ['DATA_DIR', './data', 'folder of the embedded PostgreSQL (PGlite) database'],
  ['DATABASE_URL', '(unset)', 'PostgreSQL server URL; when set the embedded database is not used'],
  ['SUPERADMIN_EMAIL / SUPERADMIN_PASSWORD', '(unset)', 'first superadmin, created at first start when none exists; otherwise a random password is printed once'],
  ['JWT_TTL_SECONDS', '3600', 'lifetime of tokens from login, renew and OAuth'],
  ['TLS_CERT_FILE / TLS_KEY_FILE', '(unset)', 'PEM certificate and key: the service then serves HTTPS with HSTS'],
  ['TRUST_PROXY', 'false', 'true declares a TLS-terminating proxy in front: plain HTTP allowed on any address'],
  ['LOG_LEVEL', 'info', 'pino level: fatal, error, warn, info, debug, trace, silent'],
  ['BODY_LIMIT_BYTES', '1048576', 'largest accepted JSON body; larger gives 413'],
  ['LOGIN_MAX_FAILURES', '5', 'failed logins per account and address before 429'],
  ['LOGIN_WINDOW_SECONDS', '900', 'window of the failed-login count, and the Retry-After bound'],
  ['RATE_LIMIT_MAX', '1200', 'requests per client address in a window before 429 (every route but /health); 0 turns the limit off'],
  ['RATE_LIMIT_WINDOW_SECONDS', '60', 'window of that count; Retry-After tells the rest of it'],
];
