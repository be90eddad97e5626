/**
 * Settings validation (architecture.md: parsed and validated once at start with a clear error for a
 * bad value): every bad variable is a SettingsError that names it, and the values the protocol layer
 * depends on (base path, namespaces) come out normalised.
 */
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

  it('a base path loses its trailing slash; "/" means the root', () => {
    expect(loadSettings({ BASE_PATH: '/MobileApp/' }).basePath).toBe('/MobileApp');
    expect(loadSettings({ BASE_PATH: '/' }).basePath).toBe('');
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
});
