/** The SOAP bindings' answers and refusals, each with the Content-Type of its version whatever the request carried. */
import type { BindingResponse } from '../../request-context/exchange';
import { ENVELOPE_NS, SOAP_CONTENT_TYPE, faultCodeOf, faultDocument, type Fault, type SoapVersion } from '../faults';
import { SoapFaultError, SoapHttpError } from '../../classifier/soap-version';
import type { OperationResult } from '../../operations/types';
import type { Service, ServiceOperation } from '../../services/types';
import type { StreamEnd } from '../chunk-writer';
import type { SpoolStore } from '../answer-spool';
import { declareSchemaPrefixes, sendTypedAnswer, writeTypedResult } from '../typed-xml';
import { annotate } from '../../request-context/annotation';
import { sendWhole } from '../../send';

/** 200 with the Cache-Control the legacy stack sends with a successful response. */
export function sendResponse(res: BindingResponse, version: SoapVersion, document: string): void {
  sendWhole(res, 200, SOAP_CONTENT_TYPE[version], document, 'private, max-age=0');
}

/** The v2 contract's typed response (docs/v2.md), written while it is built, so a large list streams. */
export function sendTypedResponse(
  res: BindingResponse,
  version: SoapVersion,
  service: Service,
  op: ServiceOperation,
  result: OperationResult,
  spool: SpoolStore,
): Promise<StreamEnd> {
  const ns = service.namespace;
  return sendTypedAnswer(res, spool, {
    service,
    status: 200,
    contentType: SOAP_CONTENT_TYPE[version],
    cacheControl: 'private, max-age=0',
    root: async (stream) => {
      stream.xml.ele(ENVELOPE_NS[version], 'soap:Envelope');
      declareSchemaPrefixes(stream.xml);
      stream.xml.ele(ENVELOPE_NS[version], 'soap:Body').ele(ns, `${op.name}Response`);
      await writeTypedResult(stream, ns, `${op.name}Result`, op.returns, result);
      stream.xml.up().up().up();
    },
  });
}

/** Status 500 as SOAP requires; 401 and 429 for the refusals of src/auth (access-refusals.ts), 403 for a cross-site write (write-refusal.ts). */
export function sendFault(res: BindingResponse, version: SoapVersion, fault: Fault, status = 500): void {
  annotate(res, { faultCode: faultCodeOf(version, fault.kind) });
  sendWhole(res, status, SOAP_CONTENT_TYPE[version], faultDocument(version, fault), 'private');
}

export function sendStatus(res: BindingResponse, status: number, version: SoapVersion): void {
  sendWhole(res, status, SOAP_CONTENT_TYPE[version], '', 'private');
}

/** Answers a rejection from the guard or the router. */
export function sendRejection(res: BindingResponse, rejection: SoapFaultError | SoapHttpError): void {
  annotate(res, { outcome: rejection instanceof SoapFaultError ? 'client_fault' : 'protocol_error' });
  if (rejection instanceof SoapFaultError) sendFault(res, rejection.version, rejection.fault);
  else sendStatus(res, rejection.status, rejection.version);
}
