/** A SOAP request refused before its operation runs: a fault (500), or a bare status with an empty body, as ASMX. */
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
