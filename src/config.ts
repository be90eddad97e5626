/** Settings, read from the environment once at start and checked by one zod schema, whose type is the settings'. */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const DATE_ORDERS = ['DMY', 'MDY'] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];

/** Which credentials the bindings require (docs/operations.md, "Authentication"); off by default. */
const AUTH_MODES = ['off', 'basic', 'apikey', 'any'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** Where rate-limit counts live (docs/operations.md, "Rate limiting"): shared by every process except memory. */
const RATE_LIMIT_STORES = ['memory', 'postgres', 'redis'] as const;

/** Who sees the test form of an operation's help page: the local machine only, as the legacy server showed it. */
const HELP_TEST_FORMS = ['local', 'all', 'off'] as const;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export class SettingsError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`${variable}: ${detail}`);
    this.name = 'SettingsError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * A URL as messages, logs and the cut-over tools' files show it: the password of its user info, and
 * the value of a query field named for a password or key (pg reads one), replaced by `mask`. Textual,
 * so that a URL too malformed to parse is masked too: from the user info's first ':' to the last '@',
 * unless a port follows that ':' (an '@' in a path or query is no user info). A form body's fields are
 * read as a query's; a field name stops at '?', so that a hostile body is scanned once.
 */
export function redactedUrl(url: string, mask = '***'): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*:)(?!\d*(?:[/?#]|$)).*@/is, (_, userinfo: string) => `${userinfo}${mask}@`)
    .replace(/((?:^|[?&])[^=&#?]*(?:password|apikey|api_key)=)[^&#]*/gi, (_, field: string) => `${field}${mask}`);
}

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
  const outOfRange = {
    error: (issue: { input?: unknown }) => `${String(issue.input)} is out of range (${min}..${max})`,
  };
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

const namespaceUri = checked(
  (value) => URL.canParse(value),
  (value) => `'${value}' is not an absolute URI`,
).pipe(
  checked(
    (value) => !/["'<>&\s]/.test(value),
    (value) => `'${value}' is not a usable namespace URI`,
  ),
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
  checked(
    (value) => /^[\x20-\x7E]+$/.test(value) && !/["\\]/.test(value),
    (value) => `'${value}' must be printable ASCII without quotes or backslashes`,
  ),
  'MobileApp',
);

/** An HTTP header name (RFC 9110 token), other than the Basic scheme's own. */
const headerName = withDefault(
  checked(
    (value) => /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value),
    (value) => `'${value}' is not an HTTP header name`,
  ).pipe(
    checked(
      (value) => value.toLowerCase() !== 'authorization',
      () => 'Authorization is the Basic header; pick another name',
    ),
  ),
  'X-API-Key',
);

/** PUBLIC_URL stands for the server's root (BASE_PATH still follows it): no credentials, query or fragment. */
const publicUrl = raw.pipe(
  checked(
    (value) => {
      const url = URL.canParse(value) ? new URL(value) : undefined;
      const plain = url !== undefined && !url.username && !url.password && !/[?#]/.test(value);
      return plain && (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
    },
    (value) =>
      `'${value}' is not an absolute http(s) URL without credentials, query or fragment (expected something like https://api.example.com)`,
  )
    .transform((value) => {
      const url = new URL(value);
      return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
    })
    .optional(),
);

const redisUrl = raw.pipe(
  checked(
    (value) => /^rediss?:\/\/[^\s]+$/.test(value),
    (value) => `'${value}' is not a redis:// or rediss:// URL`,
  ).optional(),
);

/** The one statement of the settings; README's table lists them in this order, and a test holds the two together. */
const ENVIRONMENT = z.object({
  PORT: integer(8080, 0, 65535),
  HOST: withDefault(z.string(), '0.0.0.0'),
  BASE_PATH: basePath,
  API_NAMESPACE: namespace,
  SYNC_NAMESPACE: namespace,
  V2_CONTRACT: boolean(true),
  API_V2_NAMESPACE: v2Namespace,
  SYNC_V2_NAMESPACE: v2Namespace,
  DATABASE_URL: databaseUrl,
  MAX_REQUEST_BYTES: integer(4 * MiB, 1024, 1024 * MiB),
  MAX_XML_DEPTH: integer(64, 8, 1_000),
  MAX_XML_NODES: integer(10_000, 100, 10_000_000),
  MAX_JSON_DEPTH: integer(64, 2, 1_000),
  MAX_REQUEST_FIELDS: integer(1000, 10, 1_000_000),
  TRUST_PROXY: boolean(false),
  PUBLIC_URL: publicUrl,
  HELP_TEST_FORMS: withDefault(oneOf(HELP_TEST_FORMS), 'local'),
  METRICS_PORT: raw.pipe(wholeNumber(0, 65535).optional()),
  DATE_ORDER: withDefault(oneOf(DATE_ORDERS), 'DMY'),
  FISCAL_YEAR_START_MONTH: integer(4, 1, 12),
  MAX_FILE_BYTES: integer(2 * MiB, 1, 1024 * MiB),
  MAX_FILES_PER_REQUEST: integer(20, 1, 10000),
  MAX_REQUEST_FILES_BYTES: integer(20 * MiB, 1, 100 * 1024 * MiB),
  LOG_LEVEL: withDefault(oneOf(LOG_LEVELS), 'info'),
  SEED_DEMO_DATA: boolean(true),
  ANSWER_CACHE_MB: integer(32, 0, 64 * 1024),
  WORKERS: integer(1, 1, 64),
  SHUTDOWN_DRAIN_MS: integer(5_000, 0, 600_000),
  SHUTDOWN_TIMEOUT_MS: integer(10_000, 0, 600_000),
  DB_CONNECT_TIMEOUT_MS: integer(5_000, 100, 600_000),
  DB_ACQUIRE_TIMEOUT_MS: integer(10_000, 100, 600_000),
  DB_STATEMENT_TIMEOUT_MS: integer(25_000, 100, 3_600_000),
  DB_BUSY_TIMEOUT_MS: integer(5_000, 0, 600_000),
  DB_STARTUP_TIMEOUT_MS: integer(120_000, 0, 3_600_000),
  REQUEST_TIMEOUT_MS: integer(120_000, 1000, 3_600_000),
  HEADERS_TIMEOUT_MS: integer(30_000, 1000, 3_600_000),
  KEEP_ALIVE_TIMEOUT_MS: integer(65_000, 1000, 3_600_000),
  SEND_TIMEOUT_MS: integer(60_000, 1000, 3_600_000),
  MAX_CONNECTIONS: integer(1000, 1, 1_000_000),
  MAX_STREAMS_PER_ADDRESS: integer(32, 1, 1_000_000),
  /** Defaults to a folder in the system's temporary folder (settingsOf). */
  SPOOL_DIR: raw,
  SPOOL_MAX_MB: integer(1024, 1, 1024 * 1024),
  AUTH_MODE: withDefault(oneOf(AUTH_MODES), 'off'),
  AUTH_REALM: realm,
  AUTH_API_KEY_HEADER: headerName,
  RATE_LIMIT_PER_MINUTE: integer(0, 0, 1_000_000),
  /** Defaults to RATE_LIMIT_PER_MINUTE (settingsOf). */
  RATE_LIMIT_BURST: raw.pipe(wholeNumber(1, 1_000_000).optional()),
  /** Defaults to postgres on PostgreSQL, else memory (settingsOf). */
  RATE_LIMIT_STORE: raw.pipe(oneOf(RATE_LIMIT_STORES).optional()),
  REDIS_URL: redisUrl,
  LOGIN_FAILURES_PER_MINUTE: integer(10, 1, 1_000_000),
  LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: integer(200, 1, 1_000_000),
});

type Environment = z.output<typeof ENVIRONMENT>;

/** MAX_REQUEST_BYTES -> maxRequestBytes, API_V2_NAMESPACE -> apiV2Namespace. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Lowercase<Head>}${Capitalize<CamelCase<Tail>>}`
  : Lowercase<S>;

function camelCase(name: string): string {
  return name.toLowerCase().replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

type Named = { [K in keyof Environment as CamelCase<K & string>]: Environment[K] };

/** The settings as the code reads them: every variable under its camelCase name, as the rules between them settle it. */
export type Settings = ReturnType<typeof settingsOf>;

/** The names of the variables the server reads: a deployment file can check its own against them (a misspelt name is silently ignored otherwise). */
export const SETTING_VARIABLES: readonly string[] = Object.keys(ENVIRONMENT.shape);

/** Each variable's value when it is not set, before the rules between variables (settingsOf). */
export function settingDefaults(): Readonly<Record<string, unknown>> {
  return ENVIRONMENT.parse({});
}

/** The settings from the environment; the first bad variable is a SettingsError naming it, in one line, its value without a password. */
export function loadSettings(env: Env = process.env): Settings {
  const parsed = ENVIRONMENT.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue.path[0]);
    const value = env[variable]?.trim();
    throw new SettingsError(
      variable,
      value ? issue.message.replaceAll(value, () => redactedUrl(value)) : issue.message,
    );
  }
  return settingsOf(parsed.data);
}

/** The v2 namespace derived from a legacy one: http://tempuri.org/ -> http://tempuri.org/v2/, urn:x -> urn:x/v2/. */
function versioned(namespace: string): string {
  return `${namespace}${namespace.endsWith('/') ? '' : '/'}v2/`;
}

/** The rules between variables, and the names the code uses (Settings). */
function settingsOf(e: Environment) {
  const onPostgres = !e.DATABASE_URL.startsWith('sqlite:');
  const rateLimitStore = e.RATE_LIMIT_STORE ?? (onPostgres ? 'postgres' : 'memory');
  if (rateLimitStore === 'postgres' && !onPostgres) {
    throw new SettingsError(
      'RATE_LIMIT_STORE',
      'postgres needs a PostgreSQL DATABASE_URL (use memory or redis with SQLite)',
    );
  }
  if (rateLimitStore === 'redis' && e.REDIS_URL === undefined)
    throw new SettingsError('REDIS_URL', 'RATE_LIMIT_STORE=redis needs REDIS_URL (redis://host:6379)');
  // node:http refuses a headers timeout longer than the request timeout (it would never apply).
  if (e.HEADERS_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS) {
    throw new SettingsError(
      'HEADERS_TIMEOUT_MS',
      `${e.HEADERS_TIMEOUT_MS} is longer than REQUEST_TIMEOUT_MS (${e.REQUEST_TIMEOUT_MS})`,
    );
  }
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new SettingsError('METRICS_PORT', `${e.METRICS_PORT} is PORT's; /metrics needs a port of its own`);
  }
  const named = Object.fromEntries(Object.entries(e).map(([name, value]) => [camelCase(name), value])) as Named;
  const { answerCacheMb, spoolMaxMb, ...rest } = named;
  return {
    ...rest,
    spoolDir: e.SPOOL_DIR ?? path.join(os.tmpdir(), 'mobileapp-asmx'),
    spoolMaxBytes: spoolMaxMb * MiB,
    apiV2Namespace: e.API_V2_NAMESPACE ?? versioned(e.API_NAMESPACE),
    syncV2Namespace: e.SYNC_V2_NAMESPACE ?? versioned(e.SYNC_NAMESPACE),
    rateLimitBurst: e.RATE_LIMIT_BURST ?? e.RATE_LIMIT_PER_MINUTE,
    rateLimitStore,
    answerCacheBytes: answerCacheMb * MiB,
  };
}
