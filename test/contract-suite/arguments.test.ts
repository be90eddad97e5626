/** The command line of npm run contract-check (src/contract-check/arguments.ts). */
import { parseArguments, UsageError } from '../../src/contract-check/arguments';

describe('contract-check arguments', () => {
  it('defaults: the ASMX namespace, no base path, extensions included, plain report', () => {
    expect(parseArguments(['http://127.0.0.1:8080/'])).toEqual({
      options: {
        baseUrl: 'http://127.0.0.1:8080',
        apiNamespace: 'http://tempuri.org/',
        syncNamespace: 'http://tempuri.org/',
        basePath: '',
        includeExtensions: true,
        contract: 'legacy',
      },
      json: false,
    });
  });

  it('reads every option, in both spellings', () => {
    const { options, json } = parseArguments([
      '--api-namespace',
      'urn:api',
      '--sync-namespace=urn:sync',
      '--base-path',
      '/MobileApp/',
      'https://legacy.example.com',
      '--no-extensions',
      '--json',
    ]);
    expect(options).toEqual({
      baseUrl: 'https://legacy.example.com',
      apiNamespace: 'urn:api',
      syncNamespace: 'urn:sync',
      basePath: '/MobileApp',
      includeExtensions: false,
      contract: 'legacy',
    });
    expect(json).toBe(true);
  });

  it('--v2 checks the typed contract, its namespaces the v2 defaults unless given', () => {
    expect(parseArguments(['http://a', '--v2']).options).toMatchObject({
      contract: 'v2',
      apiNamespace: 'http://tempuri.org/v2/',
      syncNamespace: 'http://tempuri.org/v2/',
    });
    expect(parseArguments(['http://a', '--v2', '--api-namespace', 'urn:typed']).options).toMatchObject({
      contract: 'v2',
      apiNamespace: 'urn:typed',
      syncNamespace: 'http://tempuri.org/v2/',
    });
  });

  it.each([
    [[], 'the base URL is missing'],
    [['ftp://x'], 'is not an http or https URL'],
    [['not a url'], 'is not a URL'],
    [['http://a', 'http://b'], "unknown argument 'http://b'"],
    [['http://a', '--api-namespace'], '--api-namespace needs a value'],
    [['http://a', '--base-path', 'MobileApp'], 'is not a path like /MobileApp'],
    [['http://a', '--json=yes'], '--json takes no value'],
    [['http://a', '--verbose'], "unknown argument '--verbose'"],
    [['http://a/?x=1'], 'without a query'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseArguments(argv)).toThrow(UsageError);
    expect(() => parseArguments(argv)).toThrow(message);
  });
});
