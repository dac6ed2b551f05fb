// The service's configuration, read from the environment and checked whole before anything is
// opened (docs/operations.md, Start and stop, "Settings first"): each setting is declared once in
// src/settings.ts; a wrong value is a ConfigError naming the variable, what is wrong and the expected form,
// which the start prints as one line before exiting with code 2.
import { accessSync, constants } from 'node:fs';
import { Value } from 'typebox/value';
import type { Static, TSchema } from 'typebox';
import { GATEWAY_SIMULATOR_MODES, SETTINGS, type Setting } from './settings.ts';
import { isStrongPassword } from './shared/passwords.ts';
import { field, isOneOf, isRecord } from './shared/json-values.ts';

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
  /** Bulk import (issue 27): the largest CSV, and the lines per transaction. */
  importMaxBytes: number;
  importBatchLines: number;
  importBatchesInFlight: number;
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
    /** GATEWAY_SIMULATOR: how the embedded gateway simulator answers iq requests (log transport only). */
    gatewaySimulator: GatewaySimulatorMode;
    gatewaySimulatorDelayMs: number;
    /** XMPP_ACCOUNTS: how the service's XMPP accounts (a system's jid_pbxagent, jid_pbxpcg) are made on the server. */
    accounts: 'none' | 'prosodyctl';
    /** PROSODYCTL_CONFIG: the Prosody configuration prosodyctl reads (XMPP_ACCOUNTS=prosodyctl). */
    prosodyctlConfig: string | undefined;
  };
  outboxPollMs: number;
  /** Implementation of each external system, by port name (`embedded`, or `kamailio` for voice). */
  ports: Record<string, string>;
  /** The SIP registrar of the devices (issue 25, point 8). */
  sip: {
    /** SIP_DOMAIN: domain and digest realm of the device accounts. */
    domain: string;
    /** KAMAILIO_DATABASE_URL (PORTS=voice=kamailio). */
    kamailioDatabaseUrl: string | undefined;
    /** KAMAILIO_CTL: the control socket given to `kamcmd -s` (PORTS=voice=kamailio). */
    kamailioCtl: string | undefined;
  };
  portsDelayMs: number;
  portsFailureRate: number;
  /** Requests per authenticated caller (a valid token's user) and window before 429; 0 turns the general limit off. */
  rateLimitMax: number;
  /** Requests per client address and window before 429, of requests without a valid token. */
  rateLimitAnonymousMax: number;
  rateLimitWindowSeconds: number;
  /** Applicant numbers the embedded partner order system knows beside those set on BP companies (ORDERS_APPLICANT_NUMBERS). */
  ordersApplicantNumbers: string[];
  /** PBX_VCP_INSTANCES: the voice platform instance of a new CloudPBX by country (ISO3, `*` the default), over the pbx module's table. */
  pbxVcpInstances: Record<string, string>;
  subscriptionSyncRetryLimit: number;
  subscriptionSyncRetryDelaySeconds: number;
  /** SUBSCRIPTION_SYNC_TIMEOUT_SECONDS: the time limit of one attempt of a subscription's synchronisation. */
  subscriptionSyncTimeoutSeconds: number;
  /** SUBSCRIPTION_SYNC_CONCURRENCY: synchronisations an instance runs at once. */
  subscriptionSyncConcurrency: number;
  /**
   * IMAGE_CONCURRENCY: images decoded or resized at once by this process (docs/security.md, Work, sessions
   * and client authentication).
   */
  imageConcurrency: number;
  /**
   * IMAGE_SIZE_CACHE_MB, in bytes: the cache of images computed at sizes other than the stored ones
   * (docs/decisions.md, Branding).
   */
  imageSizeCacheBytes: number;
  databaseConnectTimeoutSeconds: number;
  /** 0: no limit. */
  databaseStatementTimeoutSeconds: number;
  databaseLookupConnections: number;
  databaseListConnections: number;
  shutdownGraceSeconds: number;
  /** MEMORY_TRIM_SECONDS (src/memory-trim.ts); 0: never. */
  memoryTrimSeconds: number;
  metrics: { enabled: boolean; port: number | undefined };
  /** BILLING_TAX_RATES: tax rates by country (alpha-3) over the built-in table of src/modules/billing/tax.ts. */
  billingTaxRates: Record<string, string>;
}

type Env = Record<string, string | undefined>;

export { GATEWAY_SIMULATOR_MODES } from './settings.ts';
export type GatewaySimulatorMode = (typeof GATEWAY_SIMULATOR_MODES)[number];

/** A setting with a wrong value: the message names the variable, the problem and the expected form. */
export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, message: string) {
    super(message);
    this.variable = variable;
    this.name = 'ConfigError';
  }
}

/** The expected form of a setting, in words, from its schema. */
export function expectedForm(schema: TSchema): string {
  const s = {
    type: field(schema, 'type'),
    minimum: field(schema, 'minimum'),
    maximum: field(schema, 'maximum'),
    anyOf: field(schema, 'anyOf'),
    description: field(schema, 'description'),
  };
  if (Array.isArray(s.anyOf)) return `one of ${s.anyOf.map((x) => String(field(x, 'const'))).join(', ')}`;
  if (typeof s.description === 'string') return s.description;
  const range = (what: string) =>
    typeof s.maximum === 'number' && s.maximum < Number.MAX_SAFE_INTEGER
      ? `${what} from ${String(s.minimum)} to ${s.maximum}`
      : typeof s.minimum === 'number'
        ? `${what} of at least ${s.minimum}`
        : what;
  if (s.type === 'integer') return range('an integer');
  if (s.type === 'number') return range('a number');
  if (s.type === 'boolean') return 'true or false';
  return 'a non-empty text';
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** The value of one setting: its default when unset, else its text read strictly (no "1.5" as 1). */
function read(setting: Setting, env: Env): unknown {
  const raw = env[setting.env];
  if (raw === undefined || raw === '') return setting.default;
  const type = field(setting.schema, 'type');
  const value =
    type === 'integer'
      ? INTEGER.test(raw)
        ? Number(raw)
        : raw
      : type === 'number'
        ? NUMBER.test(raw)
          ? Number(raw)
          : raw
        : type === 'boolean'
          ? raw === 'true'
            ? true
            : raw === 'false'
              ? false
              : raw
          : raw;
  if (!Value.Check(setting.schema, value)) {
    // The value is named unless the setting is a secret.
    const shown = /SECRET|PASSWORD/.test(setting.env) ? '' : `=${JSON.stringify(raw).slice(0, 80)}`;
    throw new ConfigError(setting.env, `${setting.env}${shown} is not valid: expected ${expectedForm(setting.schema)}`);
  }
  return value;
}

export const PORT_NAMES = ['orders', 'billing', 'providers', 'voice', 'files'] as const;
/** The implementations of each port beside `embedded`. */
const OTHER_IMPLEMENTATIONS: Record<(typeof PORT_NAMES)[number], readonly string[]> = {
  orders: [],
  billing: [],
  providers: [],
  voice: ['kamailio'],
  files: [],
};

function ports(spec: string | undefined): Record<string, string> {
  const out: Record<string, string> = Object.fromEntries(PORT_NAMES.map((n) => [n, 'embedded']));
  for (const part of (spec ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, impl] = part.split('=').map((x) => x.trim());
    if (!isOneOf(PORT_NAMES, name))
      throw new ConfigError(
        'PORTS',
        `PORTS: "${part}" names no port: expected <port>=<implementation> with a port among ${PORT_NAMES.join(', ')}`,
      );
    const known = ['embedded', ...OTHER_IMPLEMENTATIONS[name]];
    if (impl === undefined || !known.includes(impl))
      throw new ConfigError(
        'PORTS',
        `PORTS: "${part}": expected an implementation of ${name} among ${known.join(', ')}`,
      );
    out[name] = impl;
  }
  return out;
}

function readable(variable: string, file: string | undefined): void {
  if (file === undefined) return;
  try {
    accessSync(file, constants.R_OK);
  } catch {
    throw new ConfigError(
      variable,
      `${variable}=${JSON.stringify(file)} is not a readable file: expected the path of a PEM file`,
    );
  }
}

const TAX_RATE = /^(0(\.\d{1,6})?|1(\.0{1,6})?)$/;

function taxRates(raw: string | undefined): Record<string, string> {
  if (raw === undefined) return {};
  const fail = (why: string) =>
    new ConfigError(
      'BILLING_TAX_RATES',
      `BILLING_TAX_RATES ${why}: expected a JSON object such as {"FRA":"0.20","DEU":"0.19"}`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw fail('is not JSON');
  }
  if (!isRecord(parsed)) throw fail('is not an object');
  const rates: Record<string, string> = {};
  for (const [country, rate] of Object.entries(parsed)) {
    if (!/^[A-Z]{3}$/.test(country)) throw fail(`has "${country.slice(0, 20)}", not an ISO 3166 alpha-3 code`);
    if (typeof rate !== 'string' || !TAX_RATE.test(rate))
      throw fail(`gives ${country} ${JSON.stringify(rate).slice(0, 20)}, not a rate from 0 to 1 as decimal text`);
    rates[country] = rate;
  }
  return rates;
}

/** The value of each setting, typed from its schema; optional where it has no default. */
type Values = {
  [S in (typeof SETTINGS)[number] as S['env']]: S extends { default: unknown }
    ? Static<S['schema']>
    : Static<S['schema']> | undefined;
};

/** Whether every setting holds a value of its schema (or none, where it has no default). */
const isValues = (v: Record<string, unknown>): v is Values =>
  SETTINGS.every((s) => (v[s.env] === undefined ? !('default' in s) : Value.Check(s.schema, v[s.env])));

/** Reads and checks every setting; throws ConfigError on the first wrong one. */
export function loadConfig(env: Env = process.env): Config {
  const v = Object.fromEntries(SETTINGS.map((s) => [s.env, read(s, env)]));
  if (!isValues(v)) throw new Error('a setting escaped its check'); // read() checked each one
  const xmppSet = (['XMPP_COMPONENT_URL', 'XMPP_COMPONENT_DOMAIN', 'XMPP_COMPONENT_SECRET'] as const).filter(
    (n) => v[n] !== undefined,
  );
  if (xmppSet.length > 0 && xmppSet.length < 3)
    throw new ConfigError(
      'XMPP_COMPONENT_URL',
      'XMPP_COMPONENT_URL, XMPP_COMPONENT_DOMAIN and XMPP_COMPONENT_SECRET go together: set all three or none',
    );
  const clockFixed = v.CLOCK_FIXED === undefined ? undefined : new Date(v.CLOCK_FIXED);
  if (clockFixed && v.CLOCK_OFFSET_SECONDS)
    throw new ConfigError('CLOCK_FIXED', 'CLOCK_FIXED and CLOCK_OFFSET_SECONDS exclude each other: set one of them');
  if ((v.TLS_CERT_FILE === undefined) !== (v.TLS_KEY_FILE === undefined))
    throw new ConfigError('TLS_CERT_FILE', 'TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  readable('TLS_CERT_FILE', v.TLS_CERT_FILE);
  readable('TLS_KEY_FILE', v.TLS_KEY_FILE);
  if (v.DATABASE_URL !== undefined && !URL.canParse(v.DATABASE_URL))
    throw new ConfigError('DATABASE_URL', 'DATABASE_URL is not a URL: expected postgres://user@host:port/database');
  const portChoice = ports(v.PORTS);
  if (portChoice.voice === 'kamailio')
    for (const n of ['KAMAILIO_DATABASE_URL', 'KAMAILIO_CTL'] as const)
      if (v[n] === undefined) throw new ConfigError(n, `PORTS=voice=kamailio needs ${n}`);
  if (v.SUPERADMIN_PASSWORD !== undefined && !isStrongPassword(v.SUPERADMIN_PASSWORD)) {
    throw new ConfigError(
      'SUPERADMIN_PASSWORD',
      'SUPERADMIN_PASSWORD is too weak: expected 8 to 256 characters with upper case, lower case, a digit and a special character',
    );
  }
  return {
    port: v.PORT,
    host: v.HOST,
    dataDir: v.DATA_DIR,
    databaseUrl: v.DATABASE_URL,
    superadminEmail: v.SUPERADMIN_EMAIL,
    superadminPassword: v.SUPERADMIN_PASSWORD,
    jwtTtlSeconds: v.JWT_TTL_SECONDS,
    tlsCertFile: v.TLS_CERT_FILE,
    tlsKeyFile: v.TLS_KEY_FILE,
    trustProxy: v.TRUST_PROXY,
    logLevel: v.LOG_LEVEL,
    bodyLimitBytes: v.BODY_LIMIT_BYTES,
    importMaxBytes: v.IMPORT_MAX_BYTES,
    importBatchLines: v.IMPORT_BATCH_LINES,
    importBatchesInFlight: v.IMPORT_BATCHES_IN_FLIGHT,
    requestTimeoutSeconds: v.REQUEST_TIMEOUT_SECONDS,
    loginMaxFailures: v.LOGIN_MAX_FAILURES,
    loginWindowSeconds: v.LOGIN_WINDOW_SECONDS,
    clockFixed,
    clockOffsetSeconds: v.CLOCK_OFFSET_SECONDS,
    xmpp: {
      componentUrl: v.XMPP_COMPONENT_URL,
      componentDomain: v.XMPP_COMPONENT_DOMAIN,
      componentSecret: v.XMPP_COMPONENT_SECRET,
      userDomain: v.XMPP_USER_DOMAIN,
      requestTimeoutMs: v.XMPP_REQUEST_TIMEOUT_MS,
      gatewaySimulator: v.GATEWAY_SIMULATOR,
      gatewaySimulatorDelayMs: v.GATEWAY_SIMULATOR_DELAY_MS,
      accounts: v.XMPP_ACCOUNTS,
      prosodyctlConfig: v.PROSODYCTL_CONFIG,
    },
    outboxPollMs: v.OUTBOX_POLL_MS,
    ports: portChoice,
    sip: { domain: v.SIP_DOMAIN, kamailioDatabaseUrl: v.KAMAILIO_DATABASE_URL, kamailioCtl: v.KAMAILIO_CTL },
    portsDelayMs: v.PORTS_DELAY_MS,
    portsFailureRate: v.PORTS_FAILURE_RATE,
    rateLimitMax: v.RATE_LIMIT_MAX,
    rateLimitAnonymousMax: v.RATE_LIMIT_ANONYMOUS_MAX,
    rateLimitWindowSeconds: v.RATE_LIMIT_WINDOW_SECONDS,
    ordersApplicantNumbers: (v.ORDERS_APPLICANT_NUMBERS ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
    pbxVcpInstances: Object.fromEntries(
      (v.PBX_VCP_INSTANCES ?? '')
        .split(',')
        .map((pair) => pair.split('=').map((x) => x.trim()))
        .filter(([country, instance]) => country && instance)
        .map(([country, instance]) => [country.toUpperCase(), instance]),
    ),
    subscriptionSyncRetryLimit: v.SUBSCRIPTION_SYNC_RETRY_LIMIT,
    subscriptionSyncRetryDelaySeconds: v.SUBSCRIPTION_SYNC_RETRY_DELAY_SECONDS,
    subscriptionSyncTimeoutSeconds: v.SUBSCRIPTION_SYNC_TIMEOUT_SECONDS,
    subscriptionSyncConcurrency: v.SUBSCRIPTION_SYNC_CONCURRENCY,
    imageConcurrency: v.IMAGE_CONCURRENCY,
    imageSizeCacheBytes: v.IMAGE_SIZE_CACHE_MB * 1024 * 1024,
    databaseConnectTimeoutSeconds: v.DATABASE_CONNECT_TIMEOUT_SECONDS,
    databaseStatementTimeoutSeconds: v.DATABASE_STATEMENT_TIMEOUT_SECONDS,
    databaseLookupConnections: v.DATABASE_LOOKUP_CONNECTIONS,
    databaseListConnections: v.DATABASE_LIST_CONNECTIONS,
    shutdownGraceSeconds: v.SHUTDOWN_GRACE_SECONDS,
    memoryTrimSeconds: v.MEMORY_TRIM_SECONDS,
    metrics: { enabled: v.METRICS, port: v.METRICS_PORT },
    billingTaxRates: taxRates(v.BILLING_TAX_RATES),
  };
}

/** The README's configuration table, from the declarations (`npm run settings`). */
export function settingsTable(): string {
  const cell = (x: string) => x.replace(/\|/g, '\\|');
  const rows = SETTINGS.map((s: Setting) => {
    const def = s.shownDefault ?? (s.default === undefined ? '(unset)' : String(s.default));
    return `| \`${s.env}\` | ${cell(def)} | ${cell(s.doc)}; ${cell(expectedForm(s.schema))} |`;
  });
  return ['| variable | default | meaning; accepted values |', '|---|---|---|', ...rows].join('\n');
}
