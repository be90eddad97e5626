/**
 * Settings validation (docs/architecture.md: parsed and validated once at start with a clear error for a
 * bad value): every bad variable is a SettingsError that names it, and the values the protocol layer
 * depends on (base path, namespaces) come out normalised.
 */
import os from 'node:os';
import path from 'node:path';
import { loadSettings, SettingsError } from '../../src/config';

describe('settings', () => {
  it('defaults: root path, tempuri namespaces, embedded database', () => {
    const settings = loadSettings({});
    expect(settings).toMatchObject({
      basePath: '',
      apiNamespace: 'http://tempuri.org/',
      syncNamespace: 'http://tempuri.org/',
      trustProxy: false,
      databaseUrl: 'sqlite:./data/mobileapp.db',
      port: 8080,
    });
  });

  it('the v2 namespaces follow the legacy ones unless set', () => {
    expect(
      loadSettings({ API_NAMESPACE: 'https://api.example.com/mobile/', SYNC_NAMESPACE: 'urn:example:sync' }),
    ).toMatchObject({
      apiV2Namespace: 'https://api.example.com/mobile/v2/',
      syncV2Namespace: 'urn:example:sync/v2/',
    });
    expect(loadSettings({ API_V2_NAMESPACE: 'urn:typed', V2_CONTRACT: 'off' })).toMatchObject({
      apiV2Namespace: 'urn:typed',
      syncV2Namespace: 'http://tempuri.org/v2/',
      v2Contract: false,
    });
  });

  it('a base path loses its trailing slash; "/" means the root', () => {
    expect(loadSettings({ BASE_PATH: '/MobileApp/' }).basePath).toBe('/MobileApp');
    expect(loadSettings({ BASE_PATH: '/' }).basePath).toBe('');
  });

  it('PUBLIC_URL: the scheme, host, port and path kept, a trailing slash dropped; METRICS_PORT read as a number', () => {
    expect(loadSettings({}).publicUrl).toBeUndefined();
    expect(loadSettings({ PUBLIC_URL: 'https://API.Example.com:443/' }).publicUrl).toBe('https://api.example.com');
    expect(loadSettings({ PUBLIC_URL: ' http://lb.example:8080/mobile// ' }).publicUrl).toBe(
      'http://lb.example:8080/mobile',
    );
    expect(loadSettings({}).metricsPort).toBeUndefined();
    expect(loadSettings({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(loadSettings({ PORT: '0', METRICS_PORT: '0' }).metricsPort).toBe(0);
  });

  it.each([
    'ftp://files.example',
    'https://user:secret@api.example.com',
    'https://api.example.com/?x=1',
    'https://api.example.com/#top',
    '/mobile',
    'https://',
  ])('PUBLIC_URL=%s is a SettingsError', (value) => {
    expect(() => loadSettings({ PUBLIC_URL: value })).toThrow(SettingsError);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['BASE_PATH', 'MobileApp'],
    ['BASE_PATH', '/a b'],
    ['BASE_PATH', '//x'],
    ['API_NAMESPACE', 'not a uri'],
    ['SYNC_NAMESPACE', 'http://x/"><y'],
    ['MAX_REQUEST_BYTES', '10'],
    ['TRUST_PROXY', 'maybe'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATE_ORDER', 'YMD'],
    ['FISCAL_YEAR_START_MONTH', '13'],
    ['MAX_FILE_BYTES', '0'],
    ['MAX_FILES_PER_REQUEST', '-1'],
    ['MAX_REQUEST_FILES_BYTES', 'lots'],
    ['LOG_LEVEL', 'loud'],
    ['ANSWER_CACHE_MB', '64MB'],
  ])('%s=%s is a SettingsError naming the variable', (variable, value) => {
    let thrown: unknown;
    try {
      loadSettings({ [variable]: value });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SettingsError);
    expect((thrown as SettingsError).variable).toBe(variable);
    expect((thrown as Error).message.startsWith(`${variable}: `)).toBe(true);
    expect((thrown as Error).message).not.toContain('\n');
  });

  // The exact line main.ts prints for a bad value: these texts are part of the operators' interface.
  it.each([
    [{ PORT: 'eighty' }, "PORT: 'eighty' is not a whole number"],
    [{ PORT: '70000' }, 'PORT: 70000 is out of range (0..65535)'],
    [{ BASE_PATH: 'MobileApp' }, "BASE_PATH: 'MobileApp' is not a path (expected something like /MobileApp)"],
    [{ API_NAMESPACE: 'not a uri' }, "API_NAMESPACE: 'not a uri' is not an absolute URI"],
    [{ SYNC_NAMESPACE: 'http://x/"><y' }, `SYNC_NAMESPACE: 'http://x/"><y' is not a usable namespace URI`],
    [{ API_V2_NAMESPACE: 'v2' }, "API_V2_NAMESPACE: 'v2' is not an absolute URI"],
    [{ V2_CONTRACT: 'sometimes' }, "V2_CONTRACT: 'sometimes' is not a boolean (use true or false)"],
    [{ MAX_REQUEST_BYTES: '10' }, 'MAX_REQUEST_BYTES: 10 is out of range (1024..1073741824)'],
    [{ TRUST_PROXY: 'maybe' }, "TRUST_PROXY: 'maybe' is not a boolean (use true or false)"],
    [
      { DATABASE_URL: 'mysql://x' },
      "DATABASE_URL: 'mysql://x' is not supported (use sqlite:<file>, sqlite::memory: or postgres://user@host:port/database)",
    ],
    [{ DATE_ORDER: 'YMD' }, "DATE_ORDER: 'YMD' is not one of DMY, MDY"],
    [{ MAX_FILES_PER_REQUEST: '-1' }, "MAX_FILES_PER_REQUEST: '-1' is not a whole number"],
    [{ LOG_LEVEL: 'loud' }, "LOG_LEVEL: 'loud' is not one of fatal, error, warn, info, debug, trace, silent"],
    [{ AUTH_REALM: 'a"b' }, `AUTH_REALM: 'a"b' must be printable ASCII without quotes or backslashes`],
    [
      { AUTH_API_KEY_HEADER: 'Authorization' },
      'AUTH_API_KEY_HEADER: Authorization is the Basic header; pick another name',
    ],
    [{ AUTH_API_KEY_HEADER: 'x y' }, "AUTH_API_KEY_HEADER: 'x y' is not an HTTP header name"],
    [
      { RATE_LIMIT_STORE: 'postgres' },
      'RATE_LIMIT_STORE: postgres needs a PostgreSQL DATABASE_URL (use memory or redis with SQLite)',
    ],
    [{ RATE_LIMIT_STORE: 'redis' }, 'REDIS_URL: RATE_LIMIT_STORE=redis needs REDIS_URL (redis://host:6379)'],
    [{ REDIS_URL: 'http://x' }, "REDIS_URL: 'http://x' is not a redis:// or rediss:// URL"],
    [{ SEED_DEMO_DATA: 'perhaps' }, "SEED_DEMO_DATA: 'perhaps' is not a boolean (use true or false)"],
    [{ HEADERS_TIMEOUT_MS: '200000' }, 'HEADERS_TIMEOUT_MS: 200000 is longer than REQUEST_TIMEOUT_MS (120000)'],
    [{ RATE_LIMIT_BURST: '0' }, 'RATE_LIMIT_BURST: 0 is out of range (1..1000000)'],
    [{ RATE_LIMIT_BURST: 'ten' }, "RATE_LIMIT_BURST: 'ten' is not a whole number"],
    [{ LOGIN_FAILURES_PER_MINUTE: '0' }, 'LOGIN_FAILURES_PER_MINUTE: 0 is out of range (1..1000000)'],
    [
      { LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: 'many' },
      "LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: 'many' is not a whole number",
    ],
    [
      { PUBLIC_URL: 'api.example.com' },
      "PUBLIC_URL: 'api.example.com' is not an absolute http(s) URL without credentials, query or fragment (expected something like https://api.example.com)",
    ],
    [{ METRICS_PORT: '8080' }, "METRICS_PORT: 8080 is PORT's; /metrics needs a port of its own"],
    [{ METRICS_PORT: '70000' }, 'METRICS_PORT: 70000 is out of range (0..65535)'],
  ])('%j is refused with the line %p', (env, line) => {
    expect(() => loadSettings(env)).toThrow(SettingsError);
    // An Error as the expectation compares the whole message, not a part of it.
    expect(() => loadSettings(env)).toThrow(new Error(line));
  });

  it('reads every variable of the README with its default, trimmed, and case-insensitive where it lists words', () => {
    expect(loadSettings({})).toEqual({
      port: 8080,
      host: '0.0.0.0',
      basePath: '',
      apiNamespace: 'http://tempuri.org/',
      syncNamespace: 'http://tempuri.org/',
      v2Contract: true,
      apiV2Namespace: 'http://tempuri.org/v2/',
      syncV2Namespace: 'http://tempuri.org/v2/',
      maxRequestBytes: 4194304,
      maxXmlDepth: 64,
      maxXmlNodes: 10000,
      maxJsonDepth: 64,
      maxRequestFields: 1000,
      trustProxy: false,
      helpTestForms: 'local',
      databaseUrl: 'sqlite:./data/mobileapp.db',
      dateOrder: 'DMY',
      fiscalYearStartMonth: 4,
      maxFileBytes: 2097152,
      maxFilesPerRequest: 20,
      maxRequestFilesBytes: 20971520,
      logLevel: 'info',
      seedDemoData: true,
      answerCacheBytes: 32 * 1024 * 1024,
      workers: 1,
      shutdownTimeoutMs: 10000,
      requestTimeoutMs: 120000,
      headersTimeoutMs: 30000,
      keepAliveTimeoutMs: 65000,
      sendTimeoutMs: 60000,
      maxConnections: 1000,
      maxStreamsPerAddress: 32,
      spoolDir: path.join(os.tmpdir(), 'mobileapp-asmx'),
      spoolMaxBytes: 1024 * 1024 * 1024,
      authMode: 'off',
      authRealm: 'MobileApp',
      authApiKeyHeader: 'X-API-Key',
      rateLimitPerMinute: 0,
      rateLimitBurst: 0,
      rateLimitStore: 'memory',
      redisUrl: undefined,
      loginFailuresPerMinute: 10,
      loginFailuresPerAddressPerMinute: 200,
      dbConnectTimeoutMs: 5000,
      dbAcquireTimeoutMs: 10000,
      dbStatementTimeoutMs: 25000,
      dbBusyTimeoutMs: 5000,
      dbStartupTimeoutMs: 120000,
      shutdownDrainMs: 5000,
    });
    const set = loadSettings({
      PORT: ' 9090 ',
      DATE_ORDER: 'mdy',
      LOG_LEVEL: 'WARN',
      TRUST_PROXY: 'Yes',
      SEED_DEMO_DATA: 'off',
      DATABASE_URL: 'postgres://u@h:5432/d',
      RATE_LIMIT_PER_MINUTE: '120',
      AUTH_MODE: 'ANY',
      MAX_XML_DEPTH: '',
    });
    expect(set).toMatchObject({
      port: 9090,
      dateOrder: 'MDY',
      logLevel: 'warn',
      trustProxy: true,
      seedDemoData: false,
      maxXmlDepth: 64,
      authMode: 'any',
    });
    // The burst defaults to the rate, and the counts to PostgreSQL when that is the database.
    expect(set).toMatchObject({ rateLimitPerMinute: 120, rateLimitBurst: 120, rateLimitStore: 'postgres' });
  });
});
