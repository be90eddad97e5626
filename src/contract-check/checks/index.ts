/** Every check, in report order: documents, SOAP, HTTP GET/POST. Ids are unique (runner asserts it). */
import type { Check } from '../types';
import { documentChecks } from './documents';
import { httpCallChecks } from './http-calls';
import { httpProtocolChecks } from './http-protocol';
import { soapCallChecks } from './soap-calls';
import { soapEnvelopeChecks } from './soap-envelope';
import { soapRoutingChecks } from './soap-routing';
import { typedCallChecks } from './typed-calls';

export const CONTRACT_CHECKS: readonly Check[] = [
  ...documentChecks,
  ...soapCallChecks,
  ...soapRoutingChecks,
  ...soapEnvelopeChecks,
  ...httpCallChecks,
  ...httpProtocolChecks,
];

/** The checks of the typed v2 contract (`contract-check --v2`, docs/v2.md). */
export const V2_CHECKS: readonly Check[] = typedCallChecks;
