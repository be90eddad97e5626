/**
 * The command line of `npm run contract-check -- <base-url> [options]` (scripts/contract-check.ts),
 * parsed into CheckOptions. Kept apart from the script so it can be tested without a process.
 */
import { DEFAULT_NAMESPACE, DEFAULT_V2_NAMESPACE } from './runner';
import type { CheckOptions } from './types';

export const USAGE = [
  'usage: npm run contract-check -- <base-url> [options]',
  '  <base-url>                 scheme://host[:port] of the server, e.g. http://127.0.0.1:8080',
  '  --api-namespace <ns>       the main service namespace (default http://tempuri.org/)',
  '  --sync-namespace <ns>      the SyncCustomers namespace (default http://tempuri.org/)',
  '  --base-path </Prefix>      a prefix before /API/... (default none)',
  '  --no-extensions            legacy mode: leave out the checks only this project satisfies',
  '  --v2                       check the typed v2 contract at /API/v2/ instead (namespaces default to http://tempuri.org/v2/)',
  '  --json                     print the report as JSON',
  'exit code: 0 every check passed, 1 a check failed, 2 bad arguments or no server at the address',
].join('\n');

export class UsageError extends Error {}

export interface CliArguments {
  options: CheckOptions;
  json: boolean;
}

export function parseArguments(argv: readonly string[]): CliArguments {
  const options: CheckOptions = {
    baseUrl: '',
    apiNamespace: '',
    syncNamespace: '',
    basePath: '',
    includeExtensions: true,
    contract: 'legacy',
  };
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = splitFlag(argv[i]);
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    const noValue = () => {
      if (inline !== undefined) throw new UsageError(`${flag} takes no value`);
    };
    switch (flag) {
      case '--api-namespace':
        options.apiNamespace = value();
        break;
      case '--sync-namespace':
        options.syncNamespace = value();
        break;
      case '--base-path':
        options.basePath = basePath(value());
        break;
      case '--no-extensions':
        noValue();
        options.includeExtensions = false;
        break;
      case '--json':
        noValue();
        json = true;
        break;
      case '--v2':
        noValue();
        options.contract = 'v2';
        break;
      default:
        if (flag.startsWith('--') || options.baseUrl !== '') throw new UsageError(`unknown argument '${argv[i]}'`);
        options.baseUrl = baseUrl(argv[i]);
    }
  }
  if (options.baseUrl === '') throw new UsageError('the base URL is missing');
  const fallback = options.contract === 'v2' ? DEFAULT_V2_NAMESPACE : DEFAULT_NAMESPACE;
  options.apiNamespace ||= fallback;
  options.syncNamespace ||= fallback;
  return { options, json };
}

function splitFlag(arg: string): [string, string | undefined] {
  if (!arg.startsWith('--') || !arg.includes('=')) return [arg, undefined];
  const at = arg.indexOf('=');
  return [arg.slice(0, at), arg.slice(at + 1)];
}

function baseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`'${text}' is not a URL (e.g. http://127.0.0.1:8080)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`'${text}' is not an http or https URL`);
  if (url.search || url.hash)
    throw new UsageError(`'${text}': give the server's address without a query (the base path is --base-path)`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** '', or '/Prefix' without a trailing slash (a trailing slash is dropped). */
function basePath(text: string): string {
  const trimmed = text.replace(/\/+$/, '');
  if (trimmed !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed))
    throw new UsageError(`--base-path: '${text}' is not a path like /MobileApp`);
  return trimmed;
}
