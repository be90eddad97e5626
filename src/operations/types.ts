/**
 * What an operation is, independent of any binding: it reads its declared fields (matched by
 * src/services/mobile-app.ts), parses them itself and returns one result every binding encodes.
 */
import type { Kysely } from 'kysely';
import type { Database, TableName, UsersTable } from '../db/schema';
import type { Engine } from '../db/engine';
import type { Settings } from '../config';
import type { Fields, Sorting } from './parse';
import type { ResultType } from './results';
import type { StreamedData, Streams } from './streamed';
import { AppError } from '../errors';

export interface UploadedFile {
  /** The form or multipart field the file came in. */
  field: string;
  fileName: string;
  /** What the client said the type is; the stored type is sniffed from the bytes. */
  declaredType: string;
  content: Buffer;
}

export interface OperationRequest {
  /** Declared names (canonical spelling) to the value sent; a name not sent is absent. */
  fields: Readonly<Record<string, string>>;
  files: readonly UploadedFile[];
}

/** A row of an answer, or a record: its fields in the order its declaration gives (results.ts). */
export type Row = object;

/** An answer's Data: rows in memory, a StreamedData (when the context streams), one record, a text, or null. */
export type ResultData = readonly Row[] | StreamedData | Row | string | null;

export interface OperationResult {
  data: ResultData;
  totals?: Record<string, number>;
  message?: string;
  /** Set only when the request asked for a page: the next page's token, null on the last (docs/behaviour.md, "Paging"). */
  nextPageToken?: string | null;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** The settings operations read. */
export type DomainSettings = Pick<
  Settings,
  'dateOrder' | 'fiscalYearStartMonth' | 'maxFileBytes' | 'maxFilesPerRequest' | 'maxRequestFilesBytes'
>;

export interface OperationContext {
  db: Kysely<Database>;
  engine: Engine;
  clock: Clock;
  settings: DomainSettings;
  /** The authenticated user (AUTH_MODE): it bounds what every operation reads or writes (src/users/hierarchy.ts). */
  principal?: UsersTable;
  /** The caller takes a StreamedData as result data, each in its turn; without it lists answer plain arrays, read through the same cursor. */
  streams?: Streams;
}

/** What every operation declares, whatever its kind. */
export interface OperationShape {
  name: string;
  /** The contract's parameters, in WSDL order; [] for "none listed". */
  params: readonly string[];
  /** Extra named fields (docs/behaviour.md) for the operations whose contract lists no parameters. */
  fields: readonly string[];
  /** Whether file parts / base64 file fields are read (WarrantyRequestFiles). */
  acceptsFiles: boolean;
  /** What its result holds, field by field (results.ts). */
  returns: ResultType;
  /** For an operation that takes SortBy: the fields it may name and its default (the help pages show them). */
  sorting?: Sorting;
}

/**
 * A read in two phases: prepare parses the fields and checks the caller's scope (every business
 * failure), and the PreparedRead runs the query. A binding that answers no data stops after prepare.
 */
export interface ReadOperation extends OperationShape {
  kind: 'read';
  /** The tables its read phase reads, when it names them (ReadDefinition.reads). */
  reads?: readonly TableName[];
  prepare(request: OperationRequest, ctx: OperationContext): Promise<PreparedRead>;
  /** prepare, then read. */
  run(request: OperationRequest, ctx: OperationContext): Promise<OperationResult>;
}

export interface PreparedRead {
  /**
   * The operation and its plan (every default resolved) as text: equal keys read from equal data give
   * equal answers (src/services/answer-cache.ts). Undefined when the plan holds anything but plain data.
   */
  readonly key: string | undefined;
  read(): Promise<OperationResult>;
}

/** Writes change data in one transaction; with no input at all they do nothing and succeed. */
export interface WriteOperation extends OperationShape {
  kind: 'write';
  run(request: OperationRequest, ctx: OperationContext): Promise<OperationResult>;
}

export type Operation = ReadOperation | WriteOperation;

/** The request as an operation's code sees it: reading a name it did not declare does not compile. */
export interface DeclaredRequest<N extends string> {
  fields: Fields<N>;
  files: readonly UploadedFile[];
}

/** A declaration's names as literal tuples, from which the type of the fields its code reads is derived. */
interface Declaration<P extends readonly string[], F extends readonly string[]> extends Omit<
  OperationShape,
  'acceptsFiles'
> {
  params: P;
  fields: F;
  /** Only WarrantyRequestFiles says true. */
  acceptsFiles?: boolean;
}

type Names<P extends readonly string[], F extends readonly string[]> = P[number] | F[number];

/** The one place a binding's request (src/services/mobile-app.ts) becomes the declared view. */
function declared<N extends string>(request: OperationRequest): DeclaredRequest<N> {
  return request as unknown as DeclaredRequest<N>;
}

/** A read's two phases as the operation writes them: the checked input (Plan) passes from one to the other. */
export interface ReadDefinition<Plan, P extends readonly string[], F extends readonly string[]> extends Declaration<
  P,
  F
> {
  /**
   * Only for a read outside the registry (an embedder's, a test's): every table `read` reads, under whose
   * versions the answer cache keeps its answer; what `prepare` reads is in the plan, so in the key. The
   * registry's are derived from their statements (src/services/read-tables.ts, npm run read-tables).
   */
  reads?: readonly [TableName, ...TableName[]];
  /** Every check that may refuse the request (AppError): legacy SOAP runs this phase only. */
  prepare(request: DeclaredRequest<Names<P, F>>, ctx: OperationContext): Plan | Promise<Plan>;
  /** The query, which refuses nothing: an AppError raised here is the server's error (checkInRead). */
  read(plan: Plan, ctx: OperationContext): Promise<OperationResult>;
}

/** Plan as JSON renders it faithfully; a function, a symbol, a bigint or an object with methods (a Date, a Map) is `never`. */
type PlainData<T> = T extends string | number | boolean | null | undefined
  ? T
  : T extends (...args: never[]) => unknown
    ? never
    : T extends object
      ? { [K in keyof T]: PlainData<T[K]> }
      : never;

/**
 * A read whose plan is plain data; otherwise what no list of operations takes, saying what to do. Checked
 * on the result, since a check on the declaration would stop the plan's type being inferred from prepare.
 */
type PlainPlan<Plan> = [Plan] extends [PlainData<Plan>]
  ? ReadOperation
  : {
      planIsNotPlainData: 'prepare returns the answer cache key (planKey): keep in the plan only strings, numbers, booleans, null, arrays and plain objects (no Date, Map, class or function)';
    };

export function readOperation<Plan, const P extends readonly string[], const F extends readonly string[]>(
  definition: ReadDefinition<Plan, P, F>,
): PlainPlan<Plan> {
  const { name, params, fields, acceptsFiles, returns, reads, sorting } = definition;
  const prepare = async (request: OperationRequest, ctx: OperationContext): Promise<PreparedRead> =>
    new PreparedPlan(definition, await definition.prepare(declared(request), ctx), ctx);
  const operation: ReadOperation = {
    name,
    params,
    fields,
    acceptsFiles: acceptsFiles ?? false,
    returns,
    sorting,
    kind: 'read',
    reads,
    prepare,
    run: async (request, ctx) => (await prepare(request, ctx)).read(),
  };
  return operation as PlainPlan<Plan>;
}

/** A class, not a literal with a getter: V8 kept such a getter's plan and context alive until a full collection. */
class PreparedPlan<Plan> implements PreparedRead {
  /** Written only when asked for (a read whose answer is never kept, or not read at all, skips it). */
  private keyText: { text: string | undefined } | undefined;

  constructor(
    private readonly definition: ReadDefinition<Plan, readonly string[], readonly string[]>,
    private readonly plan: Plan,
    private readonly ctx: OperationContext,
  ) {}

  get key(): string | undefined {
    this.keyText ??= { text: planKey(this.definition.name, this.plan) };
    return this.keyText.text;
  }

  read(): Promise<OperationResult> {
    return this.definition.read(this.plan, this.ctx).catch((error: unknown) => {
      throw error instanceof AppError ? checkInRead(this.definition.name, error) : error;
    });
  }
}

/**
 * A business failure raised by `read` becomes the server's error on every binding: legacy SOAP runs
 * only `prepare`, so answered as a refusal it would be refused on three bindings and pass on the fourth.
 */
export function checkInRead(name: string, error: AppError): Error {
  return new Error(
    `${name} raised ${error.code} (${error.message}) in read, which legacy SOAP never runs: ` +
      'move the check to prepare, so that every binding refuses it (src/operations/types.ts, ReadDefinition)',
  );
}

/** The plan as JSON under the operation's name, or undefined if it holds what JSON would not render faithfully. */
export function planKey(name: string, plan: unknown): string | undefined {
  let plain = true;
  const text = JSON.stringify(plan, (_key, value: unknown) => {
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') plain = false;
    else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) plain = false;
    }
    return value;
  });
  return plain ? `${name}\n${text ?? ''}` : undefined;
}

export interface WriteDefinition<P extends readonly string[], F extends readonly string[]> extends Declaration<P, F> {
  run(request: DeclaredRequest<Names<P, F>>, ctx: OperationContext): Promise<OperationResult>;
}

export function writeOperation<const P extends readonly string[], const F extends readonly string[]>(
  definition: WriteDefinition<P, F>,
): WriteOperation {
  const { name, params, fields, acceptsFiles, returns } = definition;
  return {
    name,
    params,
    fields,
    acceptsFiles: acceptsFiles ?? false,
    returns,
    kind: 'write',
    run: (request, ctx) => definition.run(declared(request), ctx),
  };
}
