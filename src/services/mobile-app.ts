/** The two service objects: MobileAppWebService, the registry's operations behind one invoke(), and SyncCustomers. */
import { sql } from 'kysely';
import { mainServiceOperations } from './registry';
import type {
  Operation,
  OperationContext,
  OperationRequest,
  OperationResult,
  ReadOperation,
  UploadedFile,
} from '../operations/types';
import { StreamedData } from '../operations/streamed';
import { TEXT_RESULT } from '../operations/results';
import {
  serviceLocation,
  type ContractVersion,
  type InvokeInput,
  type Outcome,
  type Service,
  type ServiceOperation,
} from './types';
import type { AnswerCache } from './answer-cache';
import { dependencies } from '../db/table-versions';
import type { TableName } from '../db/schema';
import { READ_TABLES } from './read-tables';

export const MOBILE_APP_SERVICE_NAME = 'MobileAppWebService';

/** Success answer of a write operation called without any input (docs/behaviour.md, "Result format"). */
export const NO_INPUT_MESSAGE = 'No input was given: nothing was changed.';

export interface MobileAppServiceOptions {
  namespace: string;
  /** The legacy contract by default. */
  contract?: ContractVersion;
  context: OperationContext;
  /** The registry by default; an embedder's or a test's own list (AppOptions.operations). */
  operations?: readonly Operation[];
  /** Where whole answers of reads are kept (answer-cache.ts); none by default. */
  answers?: AnswerCache;
  /** The folder holding the wsdl/ that describes the service; the project's by default (AppOptions.wsdlRoot). */
  wsdlRoot?: string;
}

export function createMobileAppService(options: MobileAppServiceOptions): Service {
  const implementations = new Map((options.operations ?? mainServiceOperations).map((op) => [op.name, op]));
  const databaseThere = databaseCheck(options.context);
  const operations = serviceOperations(implementations.values());
  return {
    name: MOBILE_APP_SERVICE_NAME,
    namespace: options.namespace,
    contract: options.contract ?? 'legacy',
    operations,
    async invoke(name: string, input: InvokeInput): Promise<Outcome> {
      const operation = implementations.get(name);
      if (!operation) throw new Error(`${name} is not an operation of ${MOBILE_APP_SERVICE_NAME}`);
      return run(operation, input, options, databaseThere);
    },
    ...serviceLocation(MOBILE_APP_SERVICE_NAME, options.contract ?? 'legacy'),
    wsdlRoot: options.wsdlRoot,
  };
}

function serviceOperations(implementations: Iterable<Operation>): Map<string, ServiceOperation> {
  return new Map(
    [...implementations].map(({ name, params, fields, acceptsFiles, returns, kind, sorting }) => [
      name,
      { name, params, fields, acceptsFiles, returns, write: kind === 'write', sorting },
    ]),
  );
}

/** Where a service is, in which namespace, and its operations: what a reader that runs none of them needs. */
export type ServiceShape = Pick<Service, 'name' | 'namespace' | 'contract' | 'path' | 'operations'>;

/**
 * The four services of both contracts as the server declares them, for a tool that classifies their
 * requests without running them (the cut-over proxy, src/cutover/traffic.ts) or writes the v2 WSDL;
 * `operations`: the main service's, the registry's by default.
 */
export function serviceShapes(
  namespaces: { apiNamespace: string; syncNamespace: string; apiV2Namespace: string; syncV2Namespace: string },
  operations: readonly Operation[] = mainServiceOperations,
): ServiceShape[] {
  const main = serviceOperations(operations);
  const sync = new Map([[helloWorld.name, helloWorld]]);
  const shape = (
    name: string,
    namespace: string,
    contract: ContractVersion,
    operations: ReadonlyMap<string, ServiceOperation>,
  ): ServiceShape => ({ name, namespace, contract, operations, path: serviceLocation(name, contract).path });
  return [
    shape(MOBILE_APP_SERVICE_NAME, namespaces.apiNamespace, 'legacy', main),
    shape(SYNC_CUSTOMERS_SERVICE_NAME, namespaces.syncNamespace, 'legacy', sync),
    shape(MOBILE_APP_SERVICE_NAME, namespaces.apiV2Namespace, 'v2', main),
    shape(SYNC_CUSTOMERS_SERVICE_NAME, namespaces.syncV2Namespace, 'v2', sync),
  ];
}

async function run(
  operation: Operation,
  input: InvokeInput,
  options: MobileAppServiceOptions,
  databaseThere: () => Promise<void>,
): Promise<Outcome> {
  const request = buildRequest(operation, input.values, input.files);
  if (operation.kind === 'write' && carriesNoInput(request)) return report({ data: null, message: NO_INPUT_MESSAGE });
  const { db, engine, clock, settings } = options.context;
  const ctx: OperationContext = {
    db,
    engine,
    clock,
    settings,
    principal: input.principal,
    streams: { turn: input.streamTurn ?? noWait },
  };
  if (operation.kind === 'write') return report(await delivered(await operation.run(request, ctx), input));
  const answers = options.answers;
  const versions =
    answers?.enabled && input.answerForm !== undefined && !input.resultDiscarded ? ctx.engine.dataVersion : undefined;
  if (answers === undefined || versions === undefined) {
    const prepared = await operation.prepare(request, ctx);
    // Its query does not run, but a read without its database still fails on every binding.
    if (input.resultDiscarded) return databaseThere().then(() => report({ data: null }));
    return report(await delivered(await prepared.read(), input));
  }
  // The versions are read before the read runs, its checks too: an answer is kept under versions of the
  // data it was read from or older (answer-cache.ts).
  const before = await versions.read();
  const prepared = await operation.prepare(request, ctx);
  if (prepared.key === undefined) return report(await delivered(await prepared.read(), input));
  const key = `${options.contract ?? 'legacy'} ${input.answerForm}\n${prepared.key}`;
  const answer = answers.get(key, before);
  if (answer !== undefined) return { kind: 'cached', answer };
  const result = await delivered(await prepared.read(), input);
  // Worked out on a miss only. None when its tables are unknown or one has no version: its answer is not kept.
  const tables = tablesRead(operation);
  const depends = tables && dependencies(before, tables);
  // A streamed answer is kept too when it proves no larger than the cache's entry limit (the cache writer's).
  if (depends === undefined) return report(result);
  return { kind: 'result', result, cacheWriter: answers.writer(key, depends) };
}

/**
 * The tables a read's answer depends on: those it names (a read outside the registry), else those
 * derived from its statements (read-tables.ts); none, and its answers are not kept.
 */
export function tablesRead(operation: ReadOperation): readonly TableName[] | undefined {
  return operation.reads ?? READ_TABLES[operation.name];
}

function report(result: OperationResult): Outcome {
  return { kind: 'result', result };
}

/**
 * Whether the database is there, one look shared by every request of the same turn. On SQLite the
 * look reads the table versions from this thread, not a worker busy with reports; only when that
 * fails is a trivial statement sent, as on PostgreSQL.
 */
function databaseCheck(context: OperationContext): () => Promise<void> {
  let shared: Promise<void> | undefined;
  const look = async () => {
    const { engine } = context;
    if (engine.kind === 'sqlite' && engine.dataVersion) {
      try {
        await engine.dataVersion.read();
        return;
      } catch {
        // The statement below tells why, or creates the file.
      }
    }
    await sql`select 1`.execute(context.db);
  };
  const forget = () => {
    shared = undefined;
  };
  return () => (shared ??= look().finally(() => setImmediate(forget)));
}

/** A snapshot's turn for a caller that keeps none (scripts, tests): at once. */
function noWait(): Promise<() => void> {
  return Promise.resolve(() => undefined);
}

function delivered(result: OperationResult, input: InvokeInput): Promise<OperationResult> | OperationResult {
  return input.streams ? result : unread(result);
}

/** For a binding that answers no data: a streamed list is closed unread (its snapshot ends at once). */
async function unread(result: OperationResult): Promise<OperationResult> {
  if (!(result.data instanceof StreamedData)) return result;
  await result.data.close();
  return { ...result, data: null };
}

/**
 * The pairs a binding collected as an OperationRequest: names match the declared ones without regard
 * to case (docs/contract.md), the first occurrence wins, unknown names are dropped.
 */
function buildRequest(
  operation: Pick<ServiceOperation, 'params' | 'fields' | 'acceptsFiles'>,
  values: Iterable<readonly [string, string]>,
  files: readonly UploadedFile[],
): OperationRequest {
  const canonical = new Map([...operation.params, ...operation.fields].map((name) => [name.toLowerCase(), name]));
  const fields: Record<string, string> = {};
  for (const [name, value] of values) {
    const known = canonical.get(name.toLowerCase());
    if (known !== undefined && !Object.prototype.hasOwnProperty.call(fields, known)) fields[known] = value;
  }
  return { fields, files: operation.acceptsFiles ? files : [] };
}

/** docs/behaviour.md: a write operation that carries no input at all does nothing. */
function carriesNoInput(request: OperationRequest): boolean {
  return request.files.length === 0 && Object.values(request.fields).every((value) => value.trim() === '');
}

/** The SyncCustomers service object: HelloWorld, answering "Hello World" on every binding. */
export const SYNC_CUSTOMERS_SERVICE_NAME = 'SyncCustomers';

const helloWorld: ServiceOperation = {
  name: 'HelloWorld',
  params: [],
  fields: [],
  acceptsFiles: false,
  returns: TEXT_RESULT,
  write: false,
};

export function createSyncCustomersService(options: {
  namespace: string;
  contract?: ContractVersion;
  wsdlRoot?: string;
}): Service {
  return {
    name: SYNC_CUSTOMERS_SERVICE_NAME,
    namespace: options.namespace,
    contract: options.contract ?? 'legacy',
    operations: new Map([[helloWorld.name, helloWorld]]),
    invoke(name: string, _input: InvokeInput): Promise<Outcome> {
      if (name !== helloWorld.name)
        return Promise.reject(new Error(`${name} is not an operation of ${SYNC_CUSTOMERS_SERVICE_NAME}`));
      return Promise.resolve({ kind: 'string', value: 'Hello World' });
    },
    ...serviceLocation(SYNC_CUSTOMERS_SERVICE_NAME, options.contract ?? 'legacy'),
    wsdlRoot: options.wsdlRoot,
  };
}
