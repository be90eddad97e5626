/**
 * Settings, read from the environment once at start and validated.
 * A bad value stops the server with one line that names the variable (see main.ts).
 */

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

export function loadSettings(env: Env = process.env): Settings {
  const rateLimitPerMinute = integer(env, 'RATE_LIMIT_PER_MINUTE', 0, 0, 1_000_000);
  const settings: Settings = {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: text(env, 'HOST', '0.0.0.0'),
    basePath: basePath(env, 'BASE_PATH'),
    apiNamespace: namespace(env, 'API_NAMESPACE'),
    syncNamespace: namespace(env, 'SYNC_NAMESPACE'),
    maxRequestBytes: integer(env, 'MAX_REQUEST_BYTES', 4 * MiB, 1024, 1024 * MiB),
    maxXmlDepth: integer(env, 'MAX_XML_DEPTH', 64, 8, 1_000),
    maxXmlNodes: integer(env, 'MAX_XML_NODES', 10_000, 100, 10_000_000),
    maxJsonDepth: integer(env, 'MAX_JSON_DEPTH', 64, 2, 1_000),
    maxRequestFields: integer(env, 'MAX_REQUEST_FIELDS', 1000, 10, 1_000_000),
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    databaseUrl: databaseUrl(env, 'DATABASE_URL'),
    dateOrder: oneOf(env, 'DATE_ORDER', ['DMY', 'MDY'] as const, 'DMY'),
    fiscalYearStartMonth: integer(env, 'FISCAL_YEAR_START_MONTH', 4, 1, 12),
    maxFileBytes: integer(env, 'MAX_FILE_BYTES', 2 * MiB, 1, 1024 * MiB),
    maxFilesPerRequest: integer(env, 'MAX_FILES_PER_REQUEST', 20, 1, 10000),
    maxRequestFilesBytes: integer(env, 'MAX_REQUEST_FILES_BYTES', 20 * MiB, 1, 100 * 1024 * MiB),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    seedDemoData: boolean(env, 'SEED_DEMO_DATA', true),
    workers: integer(env, 'WORKERS', 1, 1, 64),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 120_000, 1000, 3_600_000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    keepAliveTimeoutMs: integer(env, 'KEEP_ALIVE_TIMEOUT_MS', 65_000, 1000, 3_600_000),
    authMode: oneOf(env, 'AUTH_MODE', ['off', 'basic', 'apikey', 'any'] as const, 'off'),
    authRealm: realm(env, 'AUTH_REALM'),
    authApiKeyHeader: headerName(env, 'AUTH_API_KEY_HEADER', 'X-API-Key'),
    rateLimitPerMinute,
    rateLimitBurst: integer(env, 'RATE_LIMIT_BURST', rateLimitPerMinute, 1, 1_000_000),
    ...rateLimitStore(env),
    dbConnectTimeoutMs: integer(env, 'DB_CONNECT_TIMEOUT_MS', 5_000, 100, 600_000),
    dbAcquireTimeoutMs: integer(env, 'DB_ACQUIRE_TIMEOUT_MS', 10_000, 100, 600_000),
    dbStatementTimeoutMs: integer(env, 'DB_STATEMENT_TIMEOUT_MS', 25_000, 100, 3_600_000),
    dbBusyTimeoutMs: integer(env, 'DB_BUSY_TIMEOUT_MS', 5_000, 0, 600_000),
    dbStartupTimeoutMs: integer(env, 'DB_STARTUP_TIMEOUT_MS', 120_000, 0, 3_600_000),
    shutdownDrainMs: integer(env, 'SHUTDOWN_DRAIN_MS', 5_000, 0, 600_000),
  };
  // node:http refuses a headers timeout longer than the request timeout (it would never apply).
  if (settings.headersTimeoutMs > settings.requestTimeoutMs) {
    throw new SettingsError('HEADERS_TIMEOUT_MS', `${settings.headersTimeoutMs} is longer than REQUEST_TIMEOUT_MS (${settings.requestTimeoutMs})`);
  }
  return settings;
}

function raw(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function text(env: Env, name: string, fallback: string): string {
  return raw(env, name) ?? fallback;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new SettingsError(name, `'${value}' is not a whole number`);
  const n = Number(value);
  if (n < min || n > max) throw new SettingsError(name, `${n} is out of range (${min}..${max})`);
  return n;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  const lower = value.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lower)) return true;
  if (['0', 'false', 'no', 'off'].includes(lower)) return false;
  throw new SettingsError(name, `'${value}' is not a boolean (use true or false)`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = raw(env, name);
  if (value === undefined) return fallback;
  const match = allowed.find((a) => a.toLowerCase() === value.toLowerCase());
  if (!match) throw new SettingsError(name, `'${value}' is not one of ${allowed.join(', ')}`);
  return match;
}

function basePath(env: Env, name: string): string {
  const value = raw(env, name);
  if (value === undefined || value === '/') return '';
  if (!/^\/[A-Za-z0-9._~\-/]*$/.test(value) || value.includes('//')) {
    throw new SettingsError(name, `'${value}' is not a path (expected something like /MobileApp)`);
  }
  return value.replace(/\/+$/, '');
}

/** The realm is written inside a quoted string of WWW-Authenticate: no quotes, backslashes or controls. */
function realm(env: Env, name: string): string {
  const value = text(env, name, 'MobileApp');
  if (!/^[\x20-\x7E]+$/.test(value) || /["\\]/.test(value)) {
    throw new SettingsError(name, `'${value}' must be printable ASCII without quotes or backslashes`);
  }
  return value;
}

/** An HTTP header name (RFC 9110 token). */
function headerName(env: Env, name: string, fallback: string): string {
  const value = text(env, name, fallback);
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value)) throw new SettingsError(name, `'${value}' is not an HTTP header name`);
  if (value.toLowerCase() === 'authorization') throw new SettingsError(name, 'Authorization is the Basic header; pick another name');
  return value;
}

function namespace(env: Env, name: string): string {
  const value = raw(env, name);
  if (value === undefined) return 'http://tempuri.org/';
  if (!URL.canParse(value)) throw new SettingsError(name, `'${value}' is not an absolute URI`);
  if (/["'<>&\s]/.test(value)) throw new SettingsError(name, `'${value}' is not a usable namespace URI`);
  return value;
}

/** RATE_LIMIT_STORE and REDIS_URL: postgres needs a PostgreSQL DATABASE_URL, redis a REDIS_URL. */
function rateLimitStore(env: Env): { rateLimitStore: RateLimitStore; redisUrl?: string } {
  const onPostgres = !databaseUrl(env, 'DATABASE_URL').startsWith('sqlite:');
  const store = oneOf(env, 'RATE_LIMIT_STORE', ['memory', 'postgres', 'redis'] as const, onPostgres ? 'postgres' : 'memory');
  if (store === 'postgres' && !onPostgres) throw new SettingsError('RATE_LIMIT_STORE', 'postgres needs a PostgreSQL DATABASE_URL (use memory or redis with SQLite)');
  const redisUrl = raw(env, 'REDIS_URL');
  if (redisUrl !== undefined && !/^rediss?:\/\/[^\s]+$/.test(redisUrl)) throw new SettingsError('REDIS_URL', `'${redisUrl}' is not a redis:// or rediss:// URL`);
  if (store === 'redis' && redisUrl === undefined) throw new SettingsError('REDIS_URL', 'RATE_LIMIT_STORE=redis needs REDIS_URL (redis://host:6379)');
  return { rateLimitStore: store, redisUrl };
}

function databaseUrl(env: Env, name: string): string {
  const value = raw(env, name) ?? 'sqlite:./data/mobileapp.db';
  if (/^sqlite:.+/.test(value) || /^postgres(ql)?:\/\/.+/.test(value)) return value;
  throw new SettingsError(name, `'${value}' is not supported (use sqlite:<file>, sqlite::memory: or postgres://user@host:port/database)`);
}
