/**
 * The real SOAP clients of the interop suite, each behind one function that runs it against a server
 * and returns its calls in one shape. Whether a client is installed is decided once, at module load
 * (python3 with zeep, php with the soap extension; the npm soap client is a dependency and always
 * there), so a suite registers cases only for the clients this machine has and says which it left out.
 */
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import * as soap from 'soap';

export type ClientBinding = 'soap11' | 'soap12' | 'httpget' | 'httppost';

export interface MainCall {
  operation: string;
  args: Record<string, string>;
}

/** One call as a client saw it. value: HelloWorld's string, null for an empty SOAP response, the JSON body over HTTP. */
export interface CallRecord {
  binding: ClientBinding;
  operation: string;
  args: Record<string, string>;
  ok: boolean;
  value?: unknown;
  fault?: { code: string; message: string };
}

export interface InteropClient {
  name: string;
  bindings: readonly ClientBinding[];
  /** serviceRoot: http://127.0.0.1:<port>/API (base path included). */
  run(serviceRoot: string, calls: readonly MainCall[]): Promise<CallRecord[]>;
}

export interface Availability {
  available: InteropClient[];
  leftOut: string[];
}

const CLIENTS_DIR = path.join(__dirname, 'clients');

/** The first python3 that can import `module` (a pyenv shim may come before the system python3). */
function findPython(module: string): string | undefined {
  return ['python3', '/usr/bin/python3'].find(
    (python) => spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore' }).status === 0,
  );
}

function phpHasSoap(): boolean {
  return spawnSync('php', ['-r', 'exit(class_exists("SoapClient") ? 0 : 1);'], { stdio: 'ignore' }).status === 0;
}

/** The clients of one kind this machine has: npm soap always, zeep and PHP when installed. */
function detect<C>(
  make: { npm: (version: '1.1' | '1.2') => C; zeep: (python: string) => C; php: (version: '1.1' | '1.2') => C },
  zeepBindings: string,
): { available: C[]; leftOut: string[] } {
  const available: C[] = [make.npm('1.1'), make.npm('1.2')];
  const leftOut: string[] = [];
  const python = findPython('zeep');
  if (python) available.push(make.zeep(python));
  else
    leftOut.push(
      `python3-zeep (${zeepBindings}) because no python3 on this machine can import zeep (apt-get install python3-zeep)`,
    );
  if (phpHasSoap()) available.push(make.php('1.1'), make.php('1.2'));
  else
    leftOut.push(
      'PHP SoapClient (SOAP_1_1, SOAP_1_2) because php with the soap extension is not installed (apt-get install php-cli php-soap)',
    );
  return { available, leftOut };
}

export function detectClients(): Availability {
  return detect({ npm: npmSoapClient, zeep: zeepClient, php: phpClient }, 'SOAP 1.1, SOAP 1.2, HttpGet, HttpPost');
}

function runJson(command: string, args: string[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${path.basename(args[0])} exited with ${code}: ${stderr || stdout}`));
      try {
        resolve(JSON.parse(stdout));
      } catch {
        reject(new Error(`${path.basename(args[0])} printed no JSON: ${stdout}\n${stderr}`));
      }
    });
  });
}

interface ZeepRecord {
  port: 'Soap' | 'Soap12' | 'HttpGet' | 'HttpPost';
  operation: string;
  args: Record<string, string>;
  ok: boolean;
  result?: unknown;
  fault?: { code: string; message: string };
}

const ZEEP_PORTS: Record<ZeepRecord['port'], ClientBinding> = {
  Soap: 'soap11',
  Soap12: 'soap12',
  HttpGet: 'httpget',
  HttpPost: 'httppost',
};

function zeepClient(python: string): InteropClient {
  return {
    name: 'python3-zeep',
    bindings: ['soap11', 'soap12', 'httpget', 'httppost'],
    async run(serviceRoot, calls) {
      const records = (await runJson(python, [
        path.join(CLIENTS_DIR, 'zeep_client.py'),
        serviceRoot,
        JSON.stringify(calls),
      ])) as ZeepRecord[];
      return records.map((record) => ({
        binding: ZEEP_PORTS[record.port],
        operation: record.operation,
        args: record.args,
        ok: record.ok,
        // Over HTTP the script reports {status, contentType, body} for the main service.
        value: isHttpResult(record.result) ? record.result.body : record.result,
        fault: record.fault,
      }));
    },
  };
}

function isHttpResult(value: unknown): value is { body: unknown } {
  return value !== null && typeof value === 'object' && 'body' in value && 'status' in value;
}

interface PhpRecord {
  operation: string;
  args: Record<string, string>;
  ok: boolean;
  result?: Record<string, unknown>;
  fault?: { code: string; message: string };
  requestContentType: string;
  responseContentType: string;
}

function phpClient(version: '1.1' | '1.2'): InteropClient {
  const binding: ClientBinding = version === '1.1' ? 'soap11' : 'soap12';
  return {
    name: `PHP SoapClient SOAP_${version.replace('.', '_')}`,
    bindings: [binding],
    async run(serviceRoot, calls) {
      const records = (await runJson('php', [
        path.join(CLIENTS_DIR, 'php_client.php'),
        serviceRoot,
        version,
        JSON.stringify(calls),
      ])) as PhpRecord[];
      return records.map((record) => {
        const soapVersionSeen = record.requestContentType?.startsWith(
          version === '1.1' ? 'text/xml' : 'application/soap+xml',
        );
        if (!soapVersionSeen) throw new Error(`PHP sent ${record.requestContentType} for SOAP ${version}`);
        return {
          binding,
          operation: record.operation,
          args: record.args,
          ok: record.ok,
          value: unwrap(record.operation, record.result),
          fault: record.fault,
        };
      });
    },
  };
}

/** Document/literal wrapped results: {opResult: text} for HelloWorld, {} (or null) for the empty response. */
function unwrap(operation: string, result: unknown): unknown {
  if (result === null || result === undefined) return null;
  if (typeof result !== 'object') return result;
  const key = `${operation}Result`;
  if (key in result) return (result as Record<string, unknown>)[key];
  return Object.keys(result).length === 0 ? null : result;
}

type Callback = (error: unknown, result: unknown) => void;
type PortMethod = (args: Record<string, string>, callback: Callback) => void;

/** The npm soap client's proxy of one service, built from its ?wsdl, on the SOAP port of `version`. */
async function npmPort(
  serviceRoot: string,
  service: string,
  version: '1.1' | '1.2',
): Promise<Record<string, PortMethod>> {
  const client = await soap.createClientAsync(
    `${serviceRoot}/${service}.asmx?wsdl`,
    version === '1.2' ? { forceSoap12Headers: true } : {},
  );
  return (client as unknown as Record<string, Record<string, Record<string, PortMethod>>>)[service][
    `${service}${version === '1.1' ? 'Soap' : 'Soap12'}`
  ];
}

function npmSoapClient(version: '1.1' | '1.2'): InteropClient {
  const binding: ClientBinding = version === '1.1' ? 'soap11' : 'soap12';
  return {
    name: `npm soap ${version}`,
    bindings: [binding],
    async run(serviceRoot, calls) {
      const main = await npmPort(serviceRoot, 'MobileAppWebService', version);
      const records = [await npmCall(binding, await npmPort(serviceRoot, 'SyncCustomers', version), 'HelloWorld', {})];
      for (const call of calls) records.push(await npmCall(binding, main, call.operation, call.args));
      return records;
    },
  };
}

function npmCall(
  binding: ClientBinding,
  port: Record<string, PortMethod>,
  operation: string,
  args: Record<string, string>,
): Promise<CallRecord> {
  return new Promise((resolve) => {
    port[operation](args, (error, result) => {
      if (error) resolve({ binding, operation, args, ok: false, fault: npmFault(error) });
      else resolve({ binding, operation, args, ok: true, value: unwrap(operation, result) });
    });
  });
}

/** The fault element as the npm client parsed it: faultcode/faultstring (1.1) or Code/Reason (1.2). */
interface ParsedFault {
  faultcode?: string;
  faultstring?: string;
  Code?: { Value?: string };
  Reason?: { Text?: string | { $value?: string } };
}

function npmFault(error: unknown): { code: string; message: string } {
  const fault = (error as { root?: { Envelope?: { Body?: { Fault?: ParsedFault } } } }).root?.Envelope?.Body?.Fault;
  if (!fault) return { code: 'no fault', message: error instanceof Error ? error.message : String(error) };
  if (fault.faultcode !== undefined) return { code: String(fault.faultcode), message: String(fault.faultstring) };
  const text = fault.Reason?.Text;
  return { code: String(fault.Code?.Value), message: String(typeof text === 'object' ? text.$value : text) };
}

// ---- the typed v2 contract (docs/v2.md) -------------------------------------------------------------

/** One call of a v2 client: its typed result as the client deserialised it, or its fault. */
export interface TypedCallRecord {
  binding: ClientBinding;
  operation: string;
  args: Record<string, string>;
  ok: boolean;
  /** The <opResult> as the client's own objects, made plain (JSON). */
  result?: unknown;
  /** detail: the ServiceError's Code, Field and Message as the client read them. */
  fault?: { code: string; message: string; detail?: unknown };
}

export interface TypedClient {
  name: string;
  bindings: readonly ClientBinding[];
  /** serviceRoot: http://127.0.0.1:<port>/API/v2 */
  run(serviceRoot: string, calls: readonly MainCall[]): Promise<TypedCallRecord[]>;
}

export function detectTypedClients(): { available: TypedClient[]; leftOut: string[] } {
  const clients = detect(
    { npm: npmTypedClient, zeep: zeepTypedClient, php: phpTypedClient },
    'v2: SOAP 1.1, SOAP 1.2, HttpGet',
  );
  const suds = findPython('suds');
  if (suds) clients.available.push(sudsTypedClient(suds));
  else
    clients.leftOut.push(
      'python3-suds (v2: SOAP 1.1) because no python3 on this machine can import suds (apt-get install python3-suds)',
    );
  return clients;
}

function sudsTypedClient(python: string): TypedClient {
  return {
    name: 'python3-suds',
    bindings: ['soap11'],
    async run(serviceRoot, calls) {
      const records = (await runJson(python, [
        path.join(CLIENTS_DIR, 'suds_v2_client.py'),
        serviceRoot,
        JSON.stringify(calls),
      ])) as Array<Omit<TypedCallRecord, 'binding'> & { port: 'Soap' }>;
      return records.map(({ port, ...record }) => ({ ...record, binding: ZEEP_PORTS[port] }));
    },
  };
}

function zeepTypedClient(python: string): TypedClient {
  return {
    name: 'python3-zeep',
    bindings: ['soap11', 'soap12', 'httpget'],
    async run(serviceRoot, calls) {
      const records = (await runJson(python, [
        path.join(CLIENTS_DIR, 'zeep_v2_client.py'),
        serviceRoot,
        JSON.stringify(calls),
      ])) as Array<Omit<TypedCallRecord, 'binding'> & { port: ZeepRecord['port'] }>;
      return records.map(({ port, ...record }) => ({ ...record, binding: ZEEP_PORTS[port] }));
    },
  };
}

function phpTypedClient(version: '1.1' | '1.2'): TypedClient {
  const binding: ClientBinding = version === '1.1' ? 'soap11' : 'soap12';
  return {
    name: `PHP SoapClient SOAP_${version.replace('.', '_')}`,
    bindings: [binding],
    async run(serviceRoot, calls) {
      const records = (await runJson('php', [
        path.join(CLIENTS_DIR, 'php_v2_client.php'),
        serviceRoot,
        version,
        JSON.stringify(calls),
      ])) as Array<Omit<TypedCallRecord, 'binding'>>;
      return records.map((record) => ({ ...record, binding }));
    },
  };
}

function npmTypedClient(version: '1.1' | '1.2'): TypedClient {
  const binding: ClientBinding = version === '1.1' ? 'soap11' : 'soap12';
  return {
    name: `npm soap ${version}`,
    bindings: [binding],
    async run(serviceRoot, calls) {
      const port = await npmPort(serviceRoot, 'MobileAppWebService', version);
      const records: TypedCallRecord[] = [];
      for (const call of calls) {
        records.push(
          await new Promise<TypedCallRecord>((resolve) => {
            port[call.operation](call.args, (error, result) => {
              const base = { binding, operation: call.operation, args: call.args };
              if (!error)
                return resolve({
                  ...base,
                  ok: true,
                  result: (result as Record<string, unknown> | null)?.[`${call.operation}Result`] ?? null,
                });
              const fault = npmFault(error);
              const body = (
                error as {
                  root?: {
                    Envelope?: {
                      Body?: { Fault?: { detail?: { ServiceError?: unknown }; Detail?: { ServiceError?: unknown } } };
                    };
                  };
                }
              ).root?.Envelope?.Body?.Fault;
              resolve({
                ...base,
                ok: false,
                fault: { ...fault, detail: body?.detail?.ServiceError ?? body?.Detail?.ServiceError },
              });
            });
          }),
        );
      }
      return records;
    },
  };
}
