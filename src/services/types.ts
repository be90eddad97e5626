/**
 * A service object: one per WSDL service, shared by all four bindings (docs/architecture.md).
 * Bindings turn a request into (operation name, raw name/value pairs, files), call invoke, and encode
 * the outcome their own way; they never know what an operation means.
 */
import type { UsersTable } from '../db/schema';
import type { OperationResult, UploadedFile } from '../operations/types';
import type { ResultType } from '../operations/results';
import type { Sorting } from '../operations/parse';
import type { AnswerKeeper, KeptAnswer } from './answer-cache';

/** One operation as the bindings see it. */
export interface ServiceOperation {
  name: string;
  /** Contract parameters in WSDL order. */
  params: readonly string[];
  /** Extra named fields the operation reads (docs/behaviour.md), beyond the contract parameters. */
  fields: readonly string[];
  acceptsFiles: boolean;
  /**
   * What its result holds (src/operations/results.ts). A text result is HelloWorld's: HTTP answers
   * <string xmlns=ns>, SOAP <opResult>. The others are the main service's: HTTP GET/POST answer their
   * JSON envelope, SOAP the empty <opResponse/>.
   */
  returns: ResultType;
  /** Whether it changes data (a write: called with no input at all it does nothing, Data null). */
  write: boolean;
  /** For an operation that takes SortBy: the fields it may name and its default. */
  sorting?: Sorting;
}

/** Where a service of this name and contract is and what describes it. */
export function serviceLocation(name: string, contract: ContractVersion): Pick<Service, 'path' | 'wsdlFile'> {
  const folder = contract === 'v2' ? 'v2/' : '';
  return { path: `/API/${folder}${name}.asmx`, wsdlFile: `wsdl/${folder}${name}.wsdl` };
}

/** The names a request of this contract carries, in the WSDL's order: v2 lists the extension fields too. */
export function contractInputs(op: Pick<ServiceOperation, 'params' | 'fields'>, contract: ContractVersion): readonly string[] {
  return contract === 'v2' ? [...op.params, ...op.fields] : op.params;
}

export type Outcome =
  /** `keeper`: where to hand the encoded answer to keep it (answer-cache.ts), when it may be kept. */
  | { kind: 'report'; result: OperationResult; keeper?: AnswerKeeper }
  /** The answer the binding encoded for an equal request on the same data, kept (answer-cache.ts). */
  | { kind: 'kept'; answer: KeptAnswer }
  | { kind: 'string'; value: string };

export interface InvokeInput {
  /** Name/value pairs as they arrived (any case, possibly unknown names, first occurrence wins). */
  values: Iterable<readonly [string, string]>;
  files: readonly UploadedFile[];
  /** The authenticated user, when authentication is on (see OperationContext.principal). */
  principal?: UsersTable;
  /**
   * The binding writes streamed data (the HTTP bindings): large lists come back as a StreamedData
   * that it must read to the end or close. Without it (the SOAP bindings, which answer no data)
   * such data is closed unread and the result's data is null.
   */
  streams?: boolean;
  /**
   * The binding answers a 'report' operation without its result (SOAP: the empty <opResponse/>,
   * docs/behaviour.md). A read is then only prepared: its parameters and the caller's scope are checked
   * (the same business failures as a whole run) and its query is not run; a write still runs whole.
   */
  resultDiscarded?: boolean;
  /**
   * The binding keeps whole answers of reads in this encoding (e.g. 'json') and can send a kept one
   * (answer-cache.ts): a read may then answer { kind: 'kept' } without running its query.
   */
  answerForm?: string;
}

/**
 * Which contract a service object stands for: the legacy one (empty SOAP responses, JSON over HTTP)
 * or the typed v2 one beside it (docs/v2.md: typed SOAP responses and XML over HTTP).
 */
export type ContractVersion = 'legacy' | 'v2';

export interface Service {
  /** WSDL service name: MobileAppWebService or SyncCustomers. */
  name: string;
  namespace: string;
  contract: ContractVersion;
  /** Path under the base path, e.g. /API/MobileAppWebService.asmx, /API/v2/MobileAppWebService.asmx */
  path: string;
  /** wsdl/<name>.wsdl, wsdl/v2/<name>.wsdl */
  wsdlFile: string;
  operations: ReadonlyMap<string, ServiceOperation>;
  /**
   * Runs an operation. Business failures reject with AppError (src/errors.ts); anything else is an
   * unexpected server error that the binding reports without internals.
   */
  invoke(operation: string, input: InvokeInput): Promise<Outcome>;
}
