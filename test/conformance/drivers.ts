/**
 * The conformance suite's drivers (one suite, many bindings): each sends an operation with named
 * values through one binding of the real app and returns one normalised outcome, so that what holds
 * for every binding is written once (test/conformance/*.test.ts). What a binding does on its own
 * (envelopes, fault bytes, content types, the JSON shape) stays in its binding's tests.
 *
 * - SOAP 1.1 / 1.2: the operation element with one child per value (in order, names as given),
 *   SOAPAction or action as generated clients send it. Success is the empty <opResponse/>; a
 *   Client/Sender fault is a refusal carrying its text; anything else fails the test.
 * - HTTP GET / POST: the values as query string / form body, in order. The JSON envelope gives
 *   success, code, field and message.
 */
import request from 'supertest';
import type { App } from '../../src/app';
import { MAIN_PATH } from '../support/interface-table';
import { escapeXmlText } from '../../src/asmx/xml-escape';
import { envelope, faultResponse, postSoap, textParser, type Version } from '../soap/soap-support';

export type BindingName = 'soap11' | 'soap12' | 'httpget' | 'httppost';
export const BINDINGS: readonly BindingName[] = ['soap11', 'soap12', 'httpget', 'httppost'];

/** What every binding can say about a call. code and field: only the JSON bindings carry them. */
export interface Outcome {
  ok: boolean;
  message?: string;
  code?: string;
  field?: string;
}

const NS = 'http://tempuri.org/';

type Values = ReadonlyArray<readonly [string, string]> | Readonly<Record<string, string>>;

/**
 * One call of `operation` at `path` through `binding`, as its clients send it, and the answer as it
 * came (for the suites that check a binding's own bytes: test/auth). `values` are name/value pairs in
 * order (duplicates kept) or a record.
 */
export function exchange(
  app: App,
  binding: BindingName,
  path: string,
  operation: string,
  values: Values = [],
  headers: Readonly<Record<string, string>> = {},
) {
  const pairs = Array.isArray(values) ? (values as ReadonlyArray<readonly [string, string]>) : Object.entries(values);
  if (binding === 'soap11' || binding === 'soap12') {
    const version: Version = binding === 'soap11' ? '1.1' : '1.2';
    const children = pairs.map(([name, value]) => `<${name}>${escapeXmlText(value)}</${name}>`).join('');
    const body = envelope(version, `<${operation} xmlns="${NS}">${children}</${operation}>`);
    return postSoap(app, path, version, body, { action: `"${NS}${operation}"`, headers: { ...headers } });
  }
  const form = new URLSearchParams(pairs.map(([name, value]): [string, string] => [name, value])).toString();
  const url = `${path}/${operation}`;
  let req =
    binding === 'httpget' ? request(app).get(form ? `${url}?${form}` : url) : request(app).post(url).type('form');
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  req = req.buffer(true).parse(textParser);
  return binding === 'httppost' ? req.send(form) : req;
}

/** Sends `operation` of the main service with `values` (and `headers`, e.g. credentials) and normalises the answer. */
export async function send(
  app: App,
  binding: BindingName,
  operation: string,
  values: Values = [],
  headers: Readonly<Record<string, string>> = {},
): Promise<Outcome> {
  const res = await exchange(app, binding, MAIN_PATH, operation, values, headers);
  if (binding === 'soap11' || binding === 'soap12') return soapOutcome(binding, operation, res);
  if (res.status !== 200 || res.headers['content-type'] !== 'application/json; charset=utf-8') {
    throw new Error(`${binding} ${operation}: HTTP ${res.status} ${res.headers['content-type']}: ${res.text}`);
  }
  const answer = JSON.parse(res.text) as { Success: boolean; Message?: string; Code?: string; Field?: string };
  return answer.Success ? { ok: true } : { ok: false, message: answer.Message, code: answer.Code, field: answer.Field };
}

/**
 * Success is the empty <opResponse/>; a refusal must be exactly the Client/Sender fault document
 * (soap-support.ts faultResponse) of the text it carries, which is returned.
 */
function soapOutcome(binding: 'soap11' | 'soap12', operation: string, res: request.Response): Outcome {
  if (res.status === 200 && res.text.includes(`<${operation}Response xmlns="${NS}" />`)) return { ok: true };
  const message = clientFaultText(binding, res.text);
  if (res.status !== 500 || message === undefined)
    throw new Error(`${binding} ${operation}: HTTP ${res.status}: ${res.text}`);
  return { ok: false, message };
}

/** The text of a Client/Sender fault (or with `side` server, a Server/Receiver one) when `text` is exactly that fault document (soap-support.ts faultResponse). */
function clientFaultText(
  binding: 'soap11' | 'soap12',
  text: string,
  side: 'client' | 'server' = 'client',
): string | undefined {
  const version: Version = binding === 'soap11' ? '1.1' : '1.2';
  const escaped = /<faultstring>([^<]*)<\/faultstring>|<soap:Text xml:lang="en">([^<]*)<\/soap:Text>/.exec(text);
  // The inverse of the three escapes the server writes (escapeXmlText).
  const message = (escaped?.[1] ?? escaped?.[2])?.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const code =
    side === 'client' ? (version === '1.1' ? 'Client' : 'Sender') : version === '1.1' ? 'Server' : 'Receiver';
  if (message === undefined || text !== faultResponse(version, code, message)) return undefined;
  return message;
}

/** A request refused before its operation runs (the access guard's 401 and 429, and its 503), normalised. */
interface Refusal {
  status: number;
  message: string;
}

/**
 * The refusal an answer is, once its binding's own form is checked exactly: the SOAP bindings answer
 * the Client/Sender fault document in their version's media type (Server/Receiver for a 503, the
 * server's own state), the HTTP bindings text/plain with the message and CRLF. Any other form fails
 * the test.
 */
export function refusal(binding: BindingName, res: request.Response): Refusal {
  if (binding === 'soap11' || binding === 'soap12') {
    const message = clientFaultText(binding, res.text, res.status === 503 ? 'server' : 'client');
    const type = binding === 'soap11' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8';
    if (message === undefined || res.headers['content-type'] !== type) {
      throw new Error(`${binding}: not a refusal: HTTP ${res.status} ${res.headers['content-type']}: ${res.text}`);
    }
    return { status: res.status, message };
  }
  if (res.headers['content-type'] !== 'text/plain; charset=utf-8' || !res.text.endsWith('\r\n')) {
    throw new Error(`${binding}: not a refusal: HTTP ${res.status} ${res.headers['content-type']}: ${res.text}`);
  }
  return { status: res.status, message: res.text.slice(0, -2) };
}

/**
 * The part of `expected` a binding can carry: every binding the success and the message, the JSON
 * bindings also the code and the field.
 */
export function carried(binding: BindingName, expected: Outcome): Outcome {
  if (binding === 'httpget' || binding === 'httppost' || expected.ok) return expected;
  return { ok: false, message: expected.message };
}
