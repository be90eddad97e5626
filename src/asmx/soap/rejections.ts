/**
 * The two ways a SOAP request is refused before (or instead of) running an operation:
 * a SOAP fault (status 500, a fault document in the request's version), or a bare HTTP status with an
 * empty body, as ASMX answers malformed XML (400), a wrong media type (415) and, here, a body over the
 * size limit (413). Thrown by the guard and the router, answered in one place (respond.ts).
 */
import type { Fault, FaultKind, SoapVersion } from '../faults';

export class SoapFaultError extends Error {
  readonly fault: Fault;
  constructor(
    readonly version: SoapVersion,
    kind: FaultKind,
    message: string,
  ) {
    super(message);
    this.name = 'SoapFaultError';
    this.fault = { kind, message };
  }
}

export class SoapHttpError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    /** Picks the Content-Type of the empty answer (ASMX still sends one). */
    readonly version: SoapVersion,
  ) {
    super(`HTTP ${status}`);
    this.name = 'SoapHttpError';
  }
}
