// Every setting of the service, declared once: its environment variable, its schema (TypeBox),
// its default and its meaning. loadConfig (src/config.ts) reads and checks them all before
// anything is opened; `npm run settings` prints the README's configuration table from this list
// (test/config/settings.test.ts holds the README to it).
import { Type, type TSchema } from 'typebox';

export interface Setting {
  /** The environment variable. */
  env: string;
  schema: TSchema;
  /** The value when the variable is unset or empty; undefined: none (the setting is optional). */
  default?: string | number | boolean;
  /** Shown in the table instead of the default (a default that is not a value: "generated"). */
  shownDefault?: string;
  doc: string;
}

const int = (minimum: number, maximum = Number.MAX_SAFE_INTEGER) => Type.Integer({ minimum, maximum });
const text = (o: { pattern?: string; description?: string } = {}) => Type.String({ minLength: 1, ...o });
const oneOf = (...values: string[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const GATEWAY_SIMULATOR_MODES = ['ack', 'refuse', 'silent'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const SETTINGS = [
  { env: 'PORT', schema: int(1, 65535), default: 8080, doc: 'TCP port of the API' },
  {
    env: 'HOST',
    schema: text(),
    default: '127.0.0.1',
    doc: 'listen address; plain HTTP is served only on a loopback address unless TLS or `TRUST_PROXY` is set',
  },
  {
    env: 'DATA_DIR',
    schema: text(),
    default: './data',
    doc: 'folder of the embedded database (PGlite); one process at a time holds it (a lock file inside names the holder)',
  },
  {
    env: 'DATABASE_URL',
    schema: text({ pattern: '^postgres(ql)?://', description: 'a postgres:// or postgresql:// URL' }),
    doc: 'PostgreSQL server URL; when set, the embedded database is not used',
  },
  {
    env: 'DATABASE_CONNECT_TIMEOUT_SECONDS',
    schema: int(1, 3600),
    default: 15,
    doc: 'how long a start waits for its database server (`DATABASE_URL`) to answer before exiting with a message',
  },
  {
    env: 'DATABASE_STATEMENT_TIMEOUT_SECONDS',
    schema: int(0, 86400),
    default: 60,
    doc: 'longest statement on a PostgreSQL server before it is cancelled (`statement_timeout`; 0: no limit); also bounds waiting for a lock',
  },
  {
    env: 'DATABASE_LOOKUP_CONNECTIONS',
    schema: int(1, 100),
    default: 1,
    doc: "connections to a PostgreSQL server for the lookup every request makes (its authorisation), pipelined: statements go behind each other on a busy connection; raise it toward the database server's cores when one core no longer serves them",
  },
  {
    env: 'DATABASE_LIST_CONNECTIONS',
    schema: int(1, 100),
    default: 4,
    doc: 'connections to a PostgreSQL server for list pages, pipelined likewise (two sets: pages planned once, and pages planned for their filter values)',
  },
  {
    env: 'SUPERADMIN_EMAIL',
    schema: text({ pattern: '^[^@\\s]+@[^@\\s]+$', description: 'an email address' }),
    default: 'superadmin@localhost',
    doc: 'login of the first superadmin, created at first start when no superadmin exists',
  },
  {
    env: 'SUPERADMIN_PASSWORD',
    schema: text(),
    shownDefault: '(generated)',
    doc: 'its password (8 to 256 characters with upper and lower case, a digit and a special character), used at first start only; unset: a random one is printed once. To change it later: `npm run reset-superadmin-password`',
  },
  { env: 'JWT_TTL_SECONDS', schema: int(1), default: 3600, doc: 'lifetime of tokens from login, renew and OAuth' },
  {
    env: 'TLS_CERT_FILE',
    schema: text(),
    doc: 'PEM certificate: with `TLS_KEY_FILE`, the service serves HTTPS, with HSTS; both must be readable files',
  },
  { env: 'TLS_KEY_FILE', schema: text(), doc: 'PEM private key of that certificate' },
  {
    env: 'TRUST_PROXY',
    schema: Type.Boolean(),
    default: false,
    doc: '`true` declares a TLS-terminating proxy in front: plain HTTP is then allowed on any address, and client addresses come from `X-Forwarded-For`',
  },
  { env: 'LOG_LEVEL', schema: oneOf(...LOG_LEVELS), default: 'info', doc: 'level of the JSON log on standard output' },
  {
    env: 'BODY_LIMIT_BYTES',
    schema: int(1024),
    default: 1_048_576,
    doc: "largest accepted JSON body of an operation that declares no limit of its own; larger gets 413 (raw, multipart and upload bodies have their limits in the operation's declaration)",
  },
  {
    env: 'IMPORT_MAX_BYTES',
    schema: int(1024),
    default: 52_428_800,
    doc: 'largest CSV a bulk import or check takes (document 3, Bulk import); larger gets 413 before it is read whole',
  },
  {
    env: 'IMPORT_BATCH_LINES',
    schema: int(1, 10_000),
    // 4,000: a batch's statements cost the database less per line than at 1,000 (docs/decisions.md,
    // Performance, "No scan of the users in an import's batch").
    default: 4000,
    doc: 'CSV lines of a bulk import written per transaction (each line stays all-or-nothing); a resumed import redoes only the lines without a report',
  },
  {
    env: 'IMPORT_BATCHES_IN_FLIGHT',
    schema: int(1, 16),
    default: 3,
    doc: 'batches of one bulk import written at once on a PostgreSQL server (the embedded database writes one at a time)',
  },
  {
    env: 'REQUEST_TIMEOUT_SECONDS',
    schema: int(0),
    default: 300,
    doc: 'time a client has to send a whole request, headers and body; past it the answer is 408 in the error body and the connection closes; `0`: no limit',
  },
  {
    env: 'SHUTDOWN_GRACE_SECONDS',
    schema: int(0, 3600),
    default: 10,
    doc: 'on `SIGTERM` or `SIGINT`, how long requests in flight may take to finish before the process exits anyway',
  },
  {
    env: 'MEMORY_TRIM_SECONDS',
    schema: int(0, 3600),
    default: 10,
    doc: "how often memory the process freed is handed back to the system (glibc's `malloc_trim`, also once 2 s after the start); `0`: never",
  },
  {
    env: 'LOGIN_MAX_FAILURES',
    schema: int(1),
    default: 5,
    doc: 'failed logins per account and client address before 429',
  },
  {
    env: 'LOGIN_WINDOW_SECONDS',
    schema: int(1),
    default: 900,
    doc: 'window of that count; `Retry-After` tells the rest of it',
  },
  {
    env: 'CLOCK_FIXED',
    schema: Type.String({ format: 'date-time', description: 'an ISO 8601 date-time such as 2026-06-15T09:00:00Z' }),
    doc: "instant at which the service's clock stands still, for demonstrations (every date the rules compute reads that clock; the job queue's own timing stays real)",
  },
  {
    env: 'CLOCK_OFFSET_SECONDS',
    schema: int(-3_153_600_000, 3_153_600_000),
    default: 0,
    doc: "seconds the service's clock runs ahead of the machine's (negative: behind); excludes `CLOCK_FIXED`",
  },
  {
    env: 'XMPP_COMPONENT_URL',
    schema: text({ pattern: '^xmpps?://[^/\\s]+$', description: 'an xmpp://host:port URL' }),
    doc: "the XMPP server's component port (`xmpp://127.0.0.1:5347`), with `XMPP_COMPONENT_DOMAIN` and `XMPP_COMPONENT_SECRET` (XEP-0114): all three or none. Unset: events and gateway requests are written to the log instead of being sent",
  },
  { env: 'XMPP_COMPONENT_DOMAIN', schema: text(), doc: "the component's address (`svc.localhost`)" },
  { env: 'XMPP_COMPONENT_SECRET', schema: text(), doc: "the component's secret" },
  {
    env: 'XMPP_USER_DOMAIN',
    schema: text(),
    default: 'localhost',
    doc: "domain of the users' JIDs (`jid_im` = `<user id>@<domain>`, given at creation)",
  },
  {
    env: 'XMPP_REQUEST_TIMEOUT_MS',
    schema: int(1),
    default: 10_000,
    doc: "how long a request to a gateway (iq) waits for its reply (a telephone system's gateway: then 504)",
  },
  {
    env: 'GATEWAY_SIMULATOR',
    schema: oneOf(...GATEWAY_SIMULATOR_MODES),
    default: 'ack',
    doc: "without XMPP settings, how the embedded gateway simulator answers the iq sent to a system's gateway: `ack`, `refuse` (502) or `silent` (504)",
  },
  {
    env: 'GATEWAY_SIMULATOR_DELAY_MS',
    schema: int(0),
    default: 0,
    doc: 'time the embedded gateway simulator takes to answer (above `XMPP_REQUEST_TIMEOUT_MS`: a late answer, ignored)',
  },
  {
    env: 'XMPP_ACCOUNTS',
    schema: oneOf('none', 'prosodyctl'),
    default: 'none',
    doc: "how a telephone system's XMPP accounts (jid_pbxagent, jid_pbxpcg) are made on the XMPP server: `none` (records only) or `prosodyctl` (Prosody's command line, on Prosody's host)",
  },
  {
    env: 'PROSODYCTL_CONFIG',
    schema: text(),
    doc: 'the Prosody configuration file prosodyctl reads (`XMPP_ACCOUNTS=prosodyctl`)',
  },
  {
    env: 'OUTBOX_POLL_MS',
    schema: int(10),
    default: 1000,
    doc: 'how often the event dispatcher looks for undelivered events',
  },
  {
    env: 'PORTS',
    schema: text({
      pattern: '^\\s*[a-z]+\\s*=\\s*[a-z]+\\s*(,\\s*[a-z]+\\s*=\\s*[a-z]+\\s*)*$',
      description: 'name=implementation pairs separated by commas',
    }),
    shownDefault: '(all embedded)',
    doc: 'implementation of each external system, `name=impl` comma-separated (`orders`, `billing`, `providers`, `voice`, `files`); `embedded` for all, and `voice=kamailio` (device accounts on a Kamailio SIP registrar: `KAMAILIO_DATABASE_URL`, `KAMAILIO_CTL`)',
  },
  {
    env: 'SIP_DOMAIN',
    schema: text({ pattern: '^[A-Za-z0-9]([A-Za-z0-9.-]{0,62})$', description: 'a host name or IPv4 address' }),
    default: 'sip.localhost',
    doc: "SIP domain, and digest realm, of the devices' accounts on the registrar (`user@SIP_DOMAIN`)",
  },
  {
    env: 'KAMAILIO_DATABASE_URL',
    schema: text({ pattern: '^postgres(ql)?://', description: 'a postgres:// or postgresql:// URL' }),
    doc: "Kamailio's PostgreSQL database (its `subscriber` and `location` tables), for `PORTS=voice=kamailio`",
  },
  {
    env: 'KAMAILIO_CTL',
    schema: text(),
    doc: "Kamailio's control socket as `kamcmd -s` takes it (`unix:/path`, `udp:host:port`), for `PORTS=voice=kamailio`; `kamcmd` must be on the PATH",
  },
  {
    env: 'ORDERS_APPLICANT_NUMBERS',
    schema: text(),
    shownDefault: '(none)',
    doc: 'comma-separated applicant numbers the embedded partner order system knows, beside the `bpApplicantNumber` of every BP company',
  },
  {
    env: 'PBX_VCP_INSTANCES',
    schema: text({
      pattern: '^\\s*([A-Za-z]{3}|\\*)\\s*=\\s*[^,=\\s]+\\s*(,\\s*([A-Za-z]{3}|\\*)\\s*=\\s*[^,=\\s]+\\s*)*$',
      description: 'ISO3=instance pairs separated by commas',
    }),
    shownDefault: '(the table of docs/decisions.md)',
    doc: 'voice platform instance of a new CloudPBX by company country, `ISO3=instance` comma-separated (`*` for the countries not named), over the built-in table (docs/decisions.md, CloudPBX)',
  },
  {
    env: 'SUBSCRIPTION_SYNC_RETRY_LIMIT',
    schema: int(0, 100),
    default: 5,
    doc: "retries of a subscription's synchronisation with the order and billing systems before it shows `syncError` (a superadmin retries it)",
  },
  {
    env: 'SUBSCRIPTION_SYNC_RETRY_DELAY_SECONDS',
    schema: int(1, 86400),
    default: 10,
    doc: 'delay before the first retry of a synchronisation; each next one doubles (capped at 10 minutes)',
  },
  {
    env: 'SUBSCRIPTION_SYNC_CONCURRENCY',
    schema: int(1, 100),
    default: 10,
    doc: 'synchronisations an instance runs at once (each asks the order and billing systems in turn); two workers take a backlog in batches of half that size',
  },
  {
    env: 'SUBSCRIPTION_SYNC_TIMEOUT_SECONDS',
    schema: int(1, 86400),
    default: 300,
    doc: 'time one attempt of a synchronisation may take (an external system that does not answer); past it the attempt counts as failed: retried, or `syncError` after the last',
  },
  {
    env: 'PORTS_DELAY_MS',
    schema: int(0),
    default: 0,
    doc: 'delay added to every call of the embedded external systems (to show pending states)',
  },
  {
    env: 'PORTS_FAILURE_RATE',
    schema: Type.Number({ minimum: 0, maximum: 1 }),
    default: 0,
    doc: 'share (0 to 1) of calls of the embedded external systems that fail',
  },
  {
    env: 'RATE_LIMIT_MAX',
    schema: int(0),
    default: 6000,
    doc: "requests per authenticated caller (the user of a valid token, from whatever addresses) within the window before 429: the default lets a provisioning script send 100 a second sustained, or 6,000 at once; general limit, beside the login limit, on every route but `/health`, `/ready` and `/metrics`, counted in each instance's memory; `0` turns the general limit off",
  },
  {
    env: 'RATE_LIMIT_ANONYMOUS_MAX',
    schema: int(1),
    default: 1200,
    doc: 'requests per client address within the window before 429, for requests without a valid token (none, forged, expired)',
  },
  {
    env: 'RATE_LIMIT_WINDOW_SECONDS',
    schema: int(1),
    default: 60,
    doc: 'window of both counts; `Retry-After` tells the rest of it',
  },
  {
    env: 'IMAGE_CONCURRENCY',
    schema: int(1, 64),
    default: 1,
    doc: 'avatars and banners decoded or resized at once by a process (uploads, and images computed at a size not yet stored or cached), each on one libvips thread, so image work takes at most this many cores; the others wait their turn, so memory stays bounded whatever arrives at once (docs/security.md)',
  },
  {
    env: 'IMAGE_SIZE_CACHE_MB',
    schema: int(1, 65536),
    default: 32,
    doc: 'memory of a process for avatars and banners computed at sizes other than the stored ones (least recently used dropped first; docs/decisions.md, Branding)',
  },
  { env: 'METRICS', schema: Type.Boolean(), default: true, doc: '`false` turns `GET /metrics` (Prometheus) off' },
  {
    env: 'METRICS_PORT',
    schema: int(1, 65535),
    doc: "serve `/metrics` on this port of `HOST` instead of the API's port",
  },
  {
    env: 'BILLING_TAX_RATES',
    schema: text({
      description:
        'a JSON object of ISO 3166 alpha-3 country codes to rates as decimal text from 0 to 1, such as {"FRA":"0.20"}',
    }),
    shownDefault: '(built-in EU table)',
    doc: "tax rates by the invoiced BP's country, over the built-in table of EU standard VAT rates (docs/billing.md, Tax); a country in neither is taxed 0",
  },
] as const satisfies readonly Setting[];

export type SettingName = (typeof SETTINGS)[number]['env'];
