/** Sends SOAP requests the way generated clients do, and asserts on fault answers. */
import { expectBody, expectContentType, expectStatus } from './expect';
import type { HttpExchange } from './http-client';
import { faultDocument, SOAP_CONTENT_TYPE, type FaultKind, type SoapVersion } from './soap-messages';
import type { CheckContext, ServiceTarget } from './types';

export interface SoapSendOptions {
  /**
   * SOAP 1.1: the SOAPAction value, sent in quotes (null: no header at all). SOAP 1.2: the action
   * parameter of the Content-Type (null or absent: none).
   */
  action?: string | null;
  /** The SOAPAction header exactly as given, quotes included (overrides action). */
  rawSoapAction?: string;
  contentType?: string;
}

export function postSoap(
  ctx: CheckContext,
  service: ServiceTarget,
  version: SoapVersion,
  body: string,
  options: SoapSendOptions = {},
): Promise<HttpExchange> {
  const headers: Record<string, string> = {};
  if (version === '1.1') {
    headers['Content-Type'] = options.contentType ?? SOAP_CONTENT_TYPE['1.1'];
    if (options.rawSoapAction !== undefined) headers.SOAPAction = options.rawSoapAction;
    else if (options.action !== null && options.action !== undefined) headers.SOAPAction = `"${options.action}"`;
  } else {
    const action = options.action ? `; action="${options.action}"` : '';
    headers['Content-Type'] = options.contentType ?? `${SOAP_CONTENT_TYPE['1.2']}${action}`;
  }
  return ctx.send({ method: 'POST', path: service.path, headers, body });
}

/** Status 500, the version's Content-Type, and the fault document byte for byte. */
export function expectFault(exchange: HttpExchange, version: SoapVersion, kind: FaultKind, message: string): void {
  // VersionMismatch is always written in the SOAP 1.1 shape (docs/contract.md, recorded: err-soap12-not-envelope).
  const shape: SoapVersion = kind === 'versionMismatch' ? '1.1' : version;
  expectStatus(exchange, 500);
  expectContentType(exchange, SOAP_CONTENT_TYPE[shape]);
  expectBody(exchange, faultDocument(shape, kind, message));
}
