/**
 * Settings, read from the environment once at start and validated by a schema (zod). A bad value
 * stops the server with one line that names the variable (see main.ts).
 */
import { z } from 'zod';

export type DateOrder = 'DMY' | 'MDY';

/** Which credentials the bindings require (docs/operations.md, "Authentication"); off by default. */
export type AuthMode = 'off' | 'basic' | 'apikey' | 'any';

/** Where rate-limit counts live (docs/operations.md, "Rate limiting"): shared by every process except memory. */
export type RateLimitStore = 'memory' | 'postgres' | 'redis';

export interface Settings {
  port: number;
  host: string;
  /** Prefix before /API/..., '' or '/Something' (no trailing slash). */
  basePath: string;
  apiNamespace: string;
  syncNamespace: string;
  /** Serve the typed v2 contract beside the legacy one (docs/v2.md): {BASE_PATH}/API/v2/<Service>.asmx. */
  v2Contract: boolean;
  /** The v2 services' namespaces: by default the legacy ones with v2/ appended. */
  apiV2Namespace: string;
  syncV2Namespace: string;
  maxRequestBytes: number;
  /** Deepest element nesting a SOAP request document may have (docs/operations.md, "Input limits"). */
  maxXmlDepth: number;
  /** Most elements and attributes, together, one SOAP request document may hold. */
  maxXmlNodes: number;
  /** Deepest nesting of arrays and objects an HTTP POST JSON body may have. */
  maxJsonDepth: number;
  /** Most fields (form fields, JSON members, multipart parts) one HTTP POST body may carry. */
  maxRequestFields: number;
  trustProxy: boolean;
  /** When set, /metrics is served only on a listener of its own at HOST:METRICS_PORT (0: any free port). */
  metricsPort?: number;
  /** The server's public root (http(s)://host[:port][/prefix], no trailing slash): when set, the only source of document addresses. */
  publicUrl?: string;
  databaseUrl: string;
  /** How slash dates such as 03/04/2026 are read: day first (default) or month first. */
  dateOrder: DateOrder;
  /** 1..12, the month a fiscal year starts in (April by default). */
  fiscalYearStartMonth: number;
  /** Largest single file WarrantyRequestFiles accepts. */
  maxFileBytes: number;
  /** Largest number of files one warranty request may hold. */
  maxFilesPerRequest: number;
  /** Largest total size of the files of one warranty request. */
  maxRequestFilesBytes: number;
  logLevel: string;
  /** Fill an empty SQLite database with demo data at start (docs/behaviour.md, "Demo data"). */
  seedDemoData: boolean;
  /** Bytes of whole read answers kept per process (docs/operations.md, "Answer cache"); 0 keeps none. */
  answerCacheBytes: number;
  /** Server processes on this host (node:cluster sharing the port); more than one needs PostgreSQL. */
  workers: number;
  /** How long open requests may take to finish after SIGTERM/SIGINT before they are cut. */
  shutdownTimeoutMs: number;
  /** Longest time a client may take to send one whole request (headers and body). */
  requestTimeoutMs: number;
  /** Longest time a client may take to send the request headers. */
  headersTimeoutMs: number;
  /** How long an idle keep-alive connection stays open (above the load balancer's idle timeout). */
  keepAliveTimeoutMs: number;
  /** off (the drop-in default), basic (HTTP Basic), apikey (the API key header) or any (either). */
  authMode: AuthMode;
  /** The realm of the Basic challenge. */
  authRealm: string;
  /** The request header carrying an API key. */
  authApiKeyHeader: string;
  /** Requests per minute each client may make to the bindings; 0 turns rate limiting off. */
  rateLimitPerMinute: number;
  /** Requests a client may make at once before the per-minute rate applies. */
  rateLimitBurst: number;
  /** Where the counts live: memory (per process; SQLite's default), postgres (the default there) or redis. */
  rateLimitStore: RateLimitStore;
  /** redis://[user:password@]host:port[/db], required with RATE_LIMIT_STORE=redis. */
  redisUrl?: string;
  /** With authentication on: failed logins a minute per client address and username, then 429 before any check. */
  loginFailuresPerMinute: number;
  /** With authentication on: failed logins a minute per client address, whatever the username. */
  loginFailuresPerAddressPerMinute: number;
  /** PostgreSQL: longest wait for a new connection to be established. */
  dbConnectTimeoutMs: number;
  /** PostgreSQL: longest wait for a connection of the pool (new or free), connecting included. */
  dbAcquireTimeoutMs: number;
  /** PostgreSQL: longest run of one statement (server side, and client side a second later). */
  dbStatementTimeoutMs: number;
  /** SQLite: how long a statement waits for another connection's lock before it fails. */
  dbBusyTimeoutMs: number;
  /** At start, how long to keep trying to reach the database before giving up. */
  dbStartupTimeoutMs: number;
  /** After SIGTERM/SIGINT, how long the server keeps accepting (reporting not-ready) before it closes. */
  shutdownDrainMs: number;
}

export class SettingsError extends Error {
  constructor(readonly variable: string, detail: string) {
    super(`${variable}: ${detail}`);
    this.name = 'SettingsError';
  }
}

type Env = Record<string, string | undefined>;

const MiB = 1024 * 1024;

/** A variable as the environment gives it: trimmed, and unset when blank. */
const raw = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** A variable with a default: `schema` checks a set value. */
function withDefault<T>(schema: z.ZodType<T, string>, fallback: T) {
  return raw.pipe(schema.optional()).transform((value) => value ?? fallback);
}

/** A whole number from min to max. */
function wholeNumber(min: number, max: number) {
  const outOfRange = { error: (issue: { input?: unknown }) => `${String(issue.input)} is out of range (${min}..${max})` };
  return z
    .string()
    .regex(/^\d+$/, { error: (issue) => `'${String(issue.input)}' is not a whole number` })
    .transform(Number)
    .pipe(z.number().min(min, outOfRange).max(max, outOfRange));
}

function integer(fallback: number, min: number, max: number) {
  return withDefault(wholeNumber(min, max), fallback);
}

const TRUE = ['1', 'true', 'yes', 'on'];
const FALSE = ['0', 'false', 'no', 'off'];

function boolean(fallback: boolean) {
  const flag = z.string().transform((value, ctx) => {
    const lower = value.toLowerCase();
    if (TRUE.includes(lower)) return true;
    if (FALSE.includes(lower)) return false;
    ctx.addIssue({ code: 'custom', message: `'${value}' is not a boolean (use true or false)` });
    return z.NEVER;
  });
  return withDefault(flag, fallback);
}

/** One of `allowed`, in any case; the result is spelled as listed. */
function oneOf<T extends string>(allowed: readonly T[]) {
  return z.string().transform((value, ctx) => {
    const match = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
    if (match !== undefined) return match;
    ctx.addIssue({ code: 'custom', message: `'${value}' is not one of ${allowed.join(', ')}` });
    return z.NEVER;
  });
}

/** A string that `valid` accepts, else the issue `refusal` words. */
function checked(valid: (value: string) => boolean, refusal: (value: string) => string) {
  return z.string().refine(valid, { error: (issue) => refusal(String(issue.input)) });
}

const basePath = raw.pipe(
  checked(
    (value) => value === '/' || (/^\/[A-Za-z0-9._~\-/]*$/.test(value) && !value.includes('//')),
    (value) => `'${value}' is not a path (expected something like /MobileApp)`,
  )
    .optional()
    .transform((value) => (value === undefined ? '' : value.replace(/\/+$/, ''))),
);

const namespaceUri = checked((value) => URL.canParse(value), (value) => `'${value}' is not an absolute URI`).pipe(
  checked((value) => !/["'<>&\s]/.test(value), (value) => `'${value}' is not a usable namespace URI`),
);
const namespace = withDefault(namespaceUri, 'http://tempuri.org/');
/** Defaults to the legacy namespace with v2/ appended (settingsOf). */
const v2Namespace = raw.pipe(namespaceUri.optional());

const databaseUrl = withDefault(
  checked(
    (value) => /^sqlite:.+/.test(value) || /^postgres(ql)?:\/\/.+/.test(value),
    (value) => `'${value}' is not supported (use sqlite:<file>, sqlite::memory: or postgres://user@host:port/database)`,
  ),
  'sqlite:./data/mobileapp.db',
);

/** The realm is written inside a quoted string of WWW-Authenticate: no quotes, backslashes or controls. */
const realm = withDefault(
  checked((value) => /^[\x20-\x7E]+$/.test(value) && !/["\\]/.test(value), (value) => `'${value}' must be printable ASCII without quotes or backslashes`),
  'MobileApp',
);

/** An HTTP header name (RFC 9110 token), other than the Basic scheme's own. */
const headerName = withDefault(
  checked((value) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value), (value) => `'${value}' is not an HTTP header name`).pipe(
    checked((value) => value.toLowerCase() !== 'authorization', () => 'Authorization is the Basic header; pick another name'),
  ),
  'X-API-Key',
);

/**
 * PUBLIC_URL (docs/operations.md, "Settings"): an absolute http(s) URL without credentials, query or
 * fragment. It stands for the server's root, so BASE_PATH still follows it; a trailing slash is dropped.
 */
const publicUrl = raw.pipe(
  checked(
    (value) => {
      const url = URL.canParse(value) ? new URL(value) : undefined;
      const plain = url !== undefined && !url.username && !url.password && !/[?#]/.test(value);
      return plain && (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
    },
    (value) => `'${value}' is not an absolute http(s) URL without credentials, query or fragment (expected something like https://api.example.com)`,
  )
    .transform((value) => {
      const url = new URL(value);
      return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
    })
    .optional(),
);

const redisUrl = raw.pipe(checked((value) => /^rediss?:\/\/[^\s]+$/.test(value), (value) => `'${value}' is not a redis:// or rediss:// URL`).optional());

/** The environment variables (README, "Settings") and what each must hold. */
const ENVIRONMENT = z.object({
  PORT: integer(8080, 0, 65535),
  HOST: withDefault(z.string(), '0.0.0.0'),
  BASE_PATH: basePath,
  API_NAMESPACE: namespace,
  SYNC_NAMESPACE: namespace,
  V2_CONTRACT: boolean(true),
  API_V2_NAMESPACE: v2Namespace,
  SYNC_V2_NAMESPACE: v2Namespace,
  MAX_REQUEST_BYTES: integer(4 * MiB, 1024, 1024 * MiB),
  MAX_XML_DEPTH: integer(64, 8, 1_000),
  MAX_XML_NODES: integer(10_000, 100, 10_000_000),
  MAX_JSON_DEPTH: integer(64, 2, 1_000),
  MAX_REQUEST_FIELDS: integer(1000, 10, 1_000_000),
  TRUST_PROXY: boolean(false),
  PUBLIC_URL: publicUrl,
  METRICS_PORT: raw.pipe(wholeNumber(0, 65535).optional()),
  DATABASE_URL: databaseUrl,
  DATE_ORDER: withDefault(oneOf(['DMY', 'MDY'] as const), 'DMY'),
  FISCAL_YEAR_START_MONTH: integer(4, 1, 12),
  MAX_FILE_BYTES: integer(2 * MiB, 1, 1024 * MiB),
  MAX_FILES_PER_REQUEST: integer(20, 1, 10000),
  MAX_REQUEST_FILES_BYTES: integer(20 * MiB, 1, 100 * 1024 * MiB),
  LOG_LEVEL: withDefault(oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const), 'info'),
  SEED_DEMO_DATA: boolean(true),
  ANSWER_CACHE_MB: integer(64, 0, 64 * 1024),
  WORKERS: integer(1, 1, 64),
  SHUTDOWN_TIMEOUT_MS: integer(10_000, 0, 600_000),
  REQUEST_TIMEOUT_MS: integer(120_000, 1000, 3_600_000),
  HEADERS_TIMEOUT_MS: integer(30_000, 1000, 3_600_000),
  KEEP_ALIVE_TIMEOUT_MS: integer(65_000, 1000, 3_600_000),
  AUTH_MODE: withDefault(oneOf(['off', 'basic', 'apikey', 'any'] as const), 'off'),
  AUTH_REALM: realm,
  AUTH_API_KEY_HEADER: headerName,
  RATE_LIMIT_PER_MINUTE: integer(0, 0, 1_000_000),
  /** Defaults to RATE_LIMIT_PER_MINUTE (settingsOf). */
  RATE_LIMIT_BURST: raw.pipe(wholeNumber(1, 1_000_000).optional()),
  /** Defaults to postgres on PostgreSQL, else memory (settingsOf). */
  RATE_LIMIT_STORE: raw.pipe(oneOf(['memory', 'postgres', 'redis'] as const).optional()),
  REDIS_URL: redisUrl,
  LOGIN_FAILURES_PER_MINUTE: integer(10, 1, 1_000_000),
  LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: integer(200, 1, 1_000_000),
  DB_CONNECT_TIMEOUT_MS: integer(5_000, 100, 600_000),
  DB_ACQUIRE_TIMEOUT_MS: integer(10_000, 100, 600_000),
  DB_STATEMENT_TIMEOUT_MS: integer(25_000, 100, 3_600_000),
  DB_BUSY_TIMEOUT_MS: integer(5_000, 0, 600_000),
  DB_STARTUP_TIMEOUT_MS: integer(120_000, 0, 3_600_000),
  SHUTDOWN_DRAIN_MS: integer(5_000, 0, 600_000),
});

type Environment = z.output<typeof ENVIRONMENT>;

/** The names of the variables the server reads: a deployment file can check its own against them (a misspelt name is silently ignored otherwise). */
export const SETTING_VARIABLES: readonly string[] = Object.keys(ENVIRONMENT.shape);

/**
 * The settings from the environment. The first variable (in the order of ENVIRONMENT) that holds a
 * bad value is a SettingsError naming it, with one line saying why.
 */
export function loadSettings(env: Env = process.env): Settings {
  const parsed = ENVIRONMENT.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SettingsError(String(issue.path[0]), issue.message);
  }
  return settingsOf(parsed.data);
}

/** The v2 namespace derived from a legacy one: http://tempuri.org/ -> http://tempuri.org/v2/, urn:x -> urn:x/v2/. */
function versioned(namespace: string): string {
  return `${namespace}${namespace.endsWith('/') ? '' : '/'}v2/`;
}

/** The rules between variables, and the names the code uses. */
function settingsOf(e: Environment): Settings {
  const onPostgres = !e.DATABASE_URL.startsWith('sqlite:');
  const rateLimitStore = e.RATE_LIMIT_STORE ?? (onPostgres ? 'postgres' : 'memory');
  if (rateLimitStore === 'postgres' && !onPostgres) {
    throw new SettingsError('RATE_LIMIT_STORE', 'postgres needs a PostgreSQL DATABASE_URL (use memory or redis with SQLite)');
  }
  if (rateLimitStore === 'redis' && e.REDIS_URL === undefined) throw new SettingsError('REDIS_URL', 'RATE_LIMIT_STORE=redis needs REDIS_URL (redis://host:6379)');
  // node:http refuses a headers timeout longer than the request timeout (it would never apply).
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new SettingsError('HEADERS_TIMEOUT_MS', `${e.HEADERS_TIMEOUT_MS} is longer than REQUEST_TIMEOUT_MS (${e.REQUEST_TIMEOUT_MS})`);
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new SettingsError('METRICS_PORT', `${e.METRICS_PORT} is PORT's; /metrics needs a port of its own`);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    basePath: e.BASE_PATH,
    apiNamespace: e.API_NAMESPACE,
    syncNamespace: e.SYNC_NAMESPACE,
    v2Contract: e.V2_CONTRACT,
    apiV2Namespace: e.API_V2_NAMESPACE ?? versioned(e.API_NAMESPACE),
    syncV2Namespace: e.SYNC_V2_NAMESPACE ?? versioned(e.SYNC_NAMESPACE),
    maxRequestBytes: e.MAX_REQUEST_BYTES,
    maxXmlDepth: e.MAX_XML_DEPTH,
    maxXmlNodes: e.MAX_XML_NODES,
    maxJsonDepth: e.MAX_JSON_DEPTH,
    maxRequestFields: e.MAX_REQUEST_FIELDS,
    trustProxy: e.TRUST_PROXY,
    publicUrl: e.PUBLIC_URL,
    metricsPort: e.METRICS_PORT,
    databaseUrl: e.DATABASE_URL,
    dateOrder: e.DATE_ORDER,
    fiscalYearStartMonth: e.FISCAL_YEAR_START_MONTH,
    maxFileBytes: e.MAX_FILE_BYTES,
    maxFilesPerRequest: e.MAX_FILES_PER_REQUEST,
    maxRequestFilesBytes: e.MAX_REQUEST_FILES_BYTES,
    logLevel: e.LOG_LEVEL,
    seedDemoData: e.SEED_DEMO_DATA,
    answerCacheBytes: e.ANSWER_CACHE_MB * MiB,
    workers: e.WORKERS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_MS,
    authMode: e.AUTH_MODE,
    authRealm: e.AUTH_REALM,
    authApiKeyHeader: e.AUTH_API_KEY_HEADER,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    rateLimitBurst: e.RATE_LIMIT_BURST ?? e.RATE_LIMIT_PER_MINUTE,
    rateLimitStore,
    redisUrl: e.REDIS_URL,
    loginFailuresPerMinute: e.LOGIN_FAILURES_PER_MINUTE,
    loginFailuresPerAddressPerMinute: e.LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE,
    dbConnectTimeoutMs: e.DB_CONNECT_TIMEOUT_MS,
    dbAcquireTimeoutMs: e.DB_ACQUIRE_TIMEOUT_MS,
    dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS,
    dbBusyTimeoutMs: e.DB_BUSY_TIMEOUT_MS,
    dbStartupTimeoutMs: e.DB_STARTUP_TIMEOUT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
  };
}
