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
import type { Express } from 'express';
import { MAIN_PATH } from '../support/interface-table';
import { envelope, postSoap, textParser, type Version } from '../soap/soap-support';

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

/** Sends `operation` of the main service with `values` (name/value pairs, in order, duplicates kept). */
export async function send(app: Express, binding: BindingName, operation: string, values: ReadonlyArray<readonly [string, string]> = []): Promise<Outcome> {
  if (binding === 'soap11' || binding === 'soap12') return sendSoap(app, binding === 'soap11' ? '1.1' : '1.2', operation, values);
  const form = new URLSearchParams(values.map(([name, value]): [string, string] => [name, value])).toString();
  const url = `${MAIN_PATH}/${operation}`;
  const res =
    binding === 'httpget'
      ? await request(app).get(form ? `${url}?${form}` : url).buffer(true).parse(textParser)
      : await request(app).post(url).type('form').buffer(true).parse(textParser).send(form);
  if (res.status !== 200 || res.headers['content-type'] !== 'application/json; charset=utf-8') {
    throw new Error(`${binding} ${operation}: HTTP ${res.status} ${res.headers['content-type']}: ${res.text}`);
  }
  const answer = JSON.parse(res.text) as { Success: boolean; Message?: string; Code?: string; Field?: string };
  return answer.Success ? { ok: true } : { ok: false, message: answer.Message, code: answer.Code, field: answer.Field };
}

async function sendSoap(app: Express, version: Version, operation: string, values: ReadonlyArray<readonly [string, string]>): Promise<Outcome> {
  const children = values.map(([name, value]) => `<${name}>${escapeXml(value)}</${name}>`).join('');
  const body = envelope(version, `<${operation} xmlns="${NS}">${children}</${operation}>`);
  const res = await postSoap(app, MAIN_PATH, version, body, { action: `"${NS}${operation}"` });
  if (res.status === 200 && res.text.includes(`<${operation}Response xmlns="${NS}" />`)) return { ok: true };
  const text = /<faultstring>([^<]*)<\/faultstring>|<soap:Text xml:lang="en">([^<]*)<\/soap:Text>/.exec(res.text);
  const code = /<faultcode>soap:Client<\/faultcode>|<soap:Value>soap:Sender<\/soap:Value>/.test(res.text);
  if (res.status !== 500 || !text || !code) throw new Error(`SOAP ${version} ${operation}: HTTP ${res.status}: ${res.text}`);
  return { ok: false, message: unescapeXml(text[1] ?? text[2]) };
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function unescapeXml(value: string): string {
  return value.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

/**
 * The part of `expected` a binding can carry: every binding the success and the message, the JSON
 * bindings also the code and the field.
 */
export function carried(binding: BindingName, expected: Outcome): Outcome {
  if (binding === 'httpget' || binding === 'httppost' || expected.ok) return expected;
  return { ok: false, message: expected.message };
}
