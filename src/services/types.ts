/** A service object: one per WSDL service, shared by all four bindings, which encode its outcomes their own way. */
import type { UsersTable } from '../db/schema';
import type { OperationResult, OperationShape, UploadedFile } from '../operations/types';
import type { CacheWriter, CachedAnswer } from './answer-cache';

/** One operation as the bindings see it: its declaration, and whether it changes data (a write). */
export interface ServiceOperation extends OperationShape {
  write: boolean;
}

/** Where a service of this name and contract is and what describes it. */
export function serviceLocation(name: string, contract: ContractVersion): Pick<Service, 'path' | 'wsdlFile'> {
  const folder = contract === 'v2' ? 'v2/' : '';
  return { path: `/API/${folder}${name}.asmx`, wsdlFile: `wsdl/${folder}${name}.wsdl` };
}

/** The names a request of this contract carries, in the WSDL's order: v2 lists the extension fields too. */
export function contractInputs(
  op: Pick<ServiceOperation, 'params' | 'fields'>,
  contract: ContractVersion,
): readonly string[] {
  return contract === 'v2' ? [...op.params, ...op.fields] : op.params;
}

export type Outcome =
  /** `cacheWriter`: where to hand the encoded answer to keep it (answer-cache.ts), when it may be kept. */
  | { kind: 'result'; result: OperationResult; cacheWriter?: CacheWriter }
  /** The answer the binding encoded for an equal request on the same data, kept (answer-cache.ts). */
  | { kind: 'cached'; answer: CachedAnswer }
  | { kind: 'string'; value: string };

export interface InvokeInput {
  /** Name/value pairs as they arrived (any case, possibly unknown names, first occurrence wins). */
  values: Iterable<readonly [string, string]>;
  files: readonly UploadedFile[];
  /** The authenticated user, when authentication is on (see OperationContext.principal). */
  principal?: UsersTable;
  /** The binding writes a StreamedData (and must read it to the end or close it); without it such data is closed unread. */
  streams?: boolean;
  /** Waited for before a streamed answer opens its snapshot (Streams.turn): it may refuse by throwing, and the binding answers the refusal. */
  streamTurn?: () => Promise<() => void>;
  /** The binding answers without the result (legacy SOAP): a read is only prepared (checked), a write still runs. */
  resultDiscarded?: boolean;
  /** The encoding ('json') in which the binding can send a kept answer (answer-cache.ts) of a read. */
  answerForm?: string;
}

/** The legacy contract (empty SOAP responses, JSON over HTTP) or the typed v2 one (docs/v2.md). */
export type ContractVersion = 'legacy' | 'v2';

export interface Service {
  /** WSDL service name: MobileAppWebService or SyncCustomers. */
  name: string;
  namespace: string;
  contract: ContractVersion;
  /** Under the base path (serviceLocation). */
  path: string;
  wsdlFile: string;
  /** The folder holding wsdlFile's wsdl/ when it is not the project's: an embedder's own contract (AppOptions.wsdlRoot). */
  wsdlRoot?: string;
  operations: ReadonlyMap<string, ServiceOperation>;
  /** Business failures reject with AppError; anything else is the server's, reported without internals. */
  invoke(operation: string, input: InvokeInput): Promise<Outcome>;
}
