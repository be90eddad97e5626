/** The two SOAP versions, their envelope namespaces, and the refusals a SOAP request can meet before its operation runs. */

export type SoapVersion = '1.1' | '1.2';

export const ENVELOPE_NS: Record<SoapVersion, string> = {
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
};

/** Fault codes by meaning: SOAP 1.1's Client/Server are SOAP 1.2's Sender/Receiver. */
export type FaultKind = 'client' | 'server' | 'versionMismatch' | 'mustUnderstand';

/** A SOAP request refused before its operation runs: a fault (500), or a bare status with an empty body, as ASMX. */
export class SoapFaultError extends Error {
  readonly fault: { kind: FaultKind; message: string };
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
