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
  /** REQUEST_TIMEOUT_SECONDS: a request not received whole within this time gets 408 (0: no limit). */
  requestTimeoutSeconds: number;
  loginMaxFailures: number;
  loginWindowSeconds: number;
  /** CLOCK_FIXED: the service's clock stands still at this instant (demonstrations). */
  clockFixed: Date | undefined;
  /** CLOCK_OFFSET_SECONDS: the service's clock runs this far ahead (negative: behind) of the machine's. */
  clockOffsetSeconds: number;
  xmpp: {
    componentUrl: string | undefined;
    componentDomain: string | undefined;
    componentSecret: string | undefined;
    /** Domain of the users' JIDs (jid_im). */
    userDomain: string;
    requestTimeoutMs: number;
  };
  outboxPollMs: number;
  /** Implementation of each external system, by port name (only `embedded` exists today). */
  ports: Record<string, string>;
  portsDelayMs: number;
  portsFailureRate: number;
  /** Requests per client address and window before 429; 0 turns the general limit off. */
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  /** IMAGE_CONCURRENCY: images decoded or resized at once by this process (issue 9, point 3). */
  imageConcurrency: number;
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

function instant(env: Env, name: string): Date | undefined {
  const raw = opt(env, name);
  if (raw === undefined) return undefined;
  const d = new Date(raw);
  if (Number.isNaN(d.getTime())) throw new Error(`${name} must be an ISO 8601 date-time, got "${raw}"`);
  return d;
}

function signedInt(env: Env, name: string): number {
  const raw = opt(env, name);
  if (raw === undefined) return 0;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got "${raw}"`);
  return n;
}

function rate(env: Env, name: string): number {
  const raw = opt(env, name);
  if (raw === undefined) return 0;
  const n = Number(raw);
  if (!(n >= 0 && n <= 1)) throw new Error(`${name} must be a number from 0 to 1, got "${raw}"`);
  return n;
}

export const PORT_NAMES = ['orders', 'billing', 'providers', 'voice', 'files'] as const;

function ports(env: Env): Record<string, string> {
  const out: Record<string, string> = Object.fromEntries(PORT_NAMES.map((n) => [n, 'embedded']));
  for (const part of (opt(env, 'PORTS') ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, impl] = part.split('=').map((x) => x.trim());
    if (!name || !impl || !(PORT_NAMES as readonly string[]).includes(name)) throw new Error(`PORTS: "${part}" is not <port>=<implementation> with a port among ${PORT_NAMES.join(', ')}`);
    out[name] = impl;
  }
  return out;
}

export function loadConfig(env: Env = process.env): Config {
  const xmppSet = ['XMPP_COMPONENT_URL', 'XMPP_COMPONENT_DOMAIN', 'XMPP_COMPONENT_SECRET'].filter((n) => opt(env, n) !== undefined);
  if (xmppSet.length > 0 && xmppSet.length < 3) throw new Error('XMPP_COMPONENT_URL, XMPP_COMPONENT_DOMAIN and XMPP_COMPONENT_SECRET go together: set all three or none');
  const clockFixed = instant(env, 'CLOCK_FIXED');
  const clockOffsetSeconds = signedInt(env, 'CLOCK_OFFSET_SECONDS');
  if (clockFixed && clockOffsetSeconds) throw new Error('CLOCK_FIXED and CLOCK_OFFSET_SECONDS exclude each other');
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
    requestTimeoutSeconds: int(env, 'REQUEST_TIMEOUT_SECONDS', 300, 0),
    loginMaxFailures: int(env, 'LOGIN_MAX_FAILURES', 5, 1),
    loginWindowSeconds: int(env, 'LOGIN_WINDOW_SECONDS', 900, 1),
    clockFixed,
    clockOffsetSeconds,
    xmpp: {
      componentUrl: opt(env, 'XMPP_COMPONENT_URL'),
      componentDomain: opt(env, 'XMPP_COMPONENT_DOMAIN'),
      componentSecret: opt(env, 'XMPP_COMPONENT_SECRET'),
      userDomain: opt(env, 'XMPP_USER_DOMAIN') ?? 'localhost',
      requestTimeoutMs: int(env, 'XMPP_REQUEST_TIMEOUT_MS', 10_000, 1),
    },
    outboxPollMs: int(env, 'OUTBOX_POLL_MS', 1000, 10),
    ports: ports(env),
    portsDelayMs: int(env, 'PORTS_DELAY_MS', 0),
    portsFailureRate: rate(env, 'PORTS_FAILURE_RATE'),
    rateLimitMax: int(env, 'RATE_LIMIT_MAX', 1200, 0),
    rateLimitWindowSeconds: int(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1),
    imageConcurrency: int(env, 'IMAGE_CONCURRENCY', 1, 1),
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
  ['REQUEST_TIMEOUT_SECONDS', '300', 'time a client has to send a whole request (headers and body); later gives 408; 0: no limit'],
  ['LOGIN_MAX_FAILURES', '5', 'failed logins per account and address before 429'],
  ['LOGIN_WINDOW_SECONDS', '900', 'window of the failed-login count, and the Retry-After bound'],
  ['CLOCK_FIXED', '(unset)', 'ISO 8601 instant at which the service\'s clock stands still (demonstrations); the queue\'s own timing stays real'],
  ['CLOCK_OFFSET_SECONDS', '0', 'seconds added to the machine\'s time by the service\'s clock (negative: earlier)'],
  ['XMPP_COMPONENT_URL / XMPP_COMPONENT_DOMAIN / XMPP_COMPONENT_SECRET', '(unset)', 'XEP-0114 component connection (e.g. xmpp://127.0.0.1:5347, svc.example.com, its secret); unset: events are logged, not sent'],
  ['XMPP_USER_DOMAIN', 'localhost', 'domain of the users\' JIDs (jid_im)'],
  ['XMPP_REQUEST_TIMEOUT_MS', '10000', 'how long an iq request waits for its reply before failing'],
  ['OUTBOX_POLL_MS', '1000', 'interval at which the event dispatcher looks for undelivered events'],
  ['PORTS', '(all embedded)', 'implementation per external system, e.g. orders=embedded,billing=embedded (ports: orders, billing, providers, voice, files)'],
  ['PORTS_DELAY_MS', '0', 'delay added to every call of the embedded external systems'],
  ['PORTS_FAILURE_RATE', '0', 'share (0 to 1) of calls of the embedded external systems that fail'],
  ['RATE_LIMIT_MAX', '1200', 'requests per client address in a window before 429 (every route but /health); 0 turns the limit off'],
  ['RATE_LIMIT_WINDOW_SECONDS', '60', 'window of that count; Retry-After tells the rest of it'],
  ['IMAGE_CONCURRENCY', '1', 'avatars and banners decoded or resized at once by a process (uploads and new variants); the others wait their turn'],
];
