/**
 * What an operation's outcome becomes in the SOAP bindings (docs/contract.md, "SOAP";
 * docs/behaviour.md, "Result format"): the object soap.listen serialises on success, or the fault on failure.
 */
import { AppError } from '../../errors';
import { UNEXPECTED_FAULT, type Fault } from '../faults';
import { replaceNonXmlChars } from '../xml-escape';
import type { Outcome } from '../../services/types';

/**
 * 'report' (every main-service operation): {} becomes the empty <opResponse xmlns="ns" />.
 * 'string' (HelloWorld): <opResponse><opResult>text</opResult></opResponse>.
 */
export function responseObject(operation: string, outcome: Outcome): Record<string, string> {
  if (outcome.kind === 'report') return {};
  return { [`${operation}Result`]: cdataProof(outcome.value) };
}

/**
 * The npm soap library copies a string that starts with "<![CDATA[" and ends with "]]>" into the
 * document unescaped (docs/contract.md, "What the npm soap library does not do by itself"). Such a string
 * is handed over as a real CDATA section holding exactly its text, with every "]]>" inside split across
 * two sections, so nothing in it can close the section or open markup. Any other string is escaped by
 * the library itself.
 */
export function cdataProof(value: string): string {
  const clean = replaceNonXmlChars(value);
  if (!(clean.startsWith('<![CDATA[') && clean.endsWith(']]>'))) return clean;
  return `<![CDATA[${clean.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
}

/**
 * AppError (a business failure) is the client's to fix: Client/Sender with its message. Anything else
 * is the server's: Server/Receiver with a fixed text, never the error's own message or stack.
 */
export function faultFor(error: unknown): Fault {
  if (error instanceof AppError) return { kind: 'client', message: error.message };
  return UNEXPECTED_FAULT;
}
