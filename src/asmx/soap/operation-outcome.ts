/** An outcome in the SOAP bindings: the object the soap library serialises, or the fault. */
import { AppError } from '../../errors';
import { UNEXPECTED_FAULT, type Fault } from '../faults';
import { cdataProof } from '../library-rows';
import type { Outcome, Service } from '../../services/types';
import { serviceErrorXml } from '../typed-xml';

/** A report's {} is the empty <opResponse xmlns="ns" />; HelloWorld's text is <opResult>. */
export function responseObject(operation: string, outcome: Outcome): Record<string, string> {
  if (outcome.kind !== 'string') return {};
  return { [`${operation}Result`]: cdataProof(outcome.value) };
}

/**
 * AppError (a business failure) is the client's to fix: Client/Sender with its message. Anything else
 * is the server's: Server/Receiver with a fixed text, never the error's own message or stack.
 */
export function faultFor(error: unknown, service: Pick<Service, 'contract' | 'namespace'>): Fault {
  if (!(error instanceof AppError)) return UNEXPECTED_FAULT;
  // The v2 contract declares the fault's detail, so generated clients read Code and Field too (docs/v2.md).
  if (service.contract === 'v2') return { kind: 'client', message: error.message, detail: serviceErrorXml(service.namespace, error) };
  return { kind: 'client', message: error.message };
}
