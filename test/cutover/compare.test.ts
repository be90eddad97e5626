/**
 * The comparison itself (src/cutover/compare.ts), on answers written out as two servers may spell
 * the same thing: what must count as equal, and what must not.
 */
import { createHash } from 'node:crypto';
import { compareAnswers, type Answer, type CompareOptions } from '../../src/cutover/compare';
import type { Call } from '../../src/cutover/traffic';

function answer(status: number, type: string, text: string): Answer {
  const body = Buffer.from(text);
  return {
    status,
    headers: { 'content-type': type },
    body,
    length: body.length,
    digest: createHash('sha256').update(body).digest('hex'),
    truncated: false,
  };
}

const NOTHING_IGNORED: CompareOptions = { ignored: () => false, noisy: () => false };

const SOAP_REQUEST = {
  method: 'POST',
  url: '/API/MobileAppWebService.asmx',
  headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://tempuri.org/getPCNList"' },
  body: Buffer.from('<x/>'),
};
const CALL: Call = {
  service: 'MobileAppWebService',
  contract: 'legacy',
  operation: 'getPCNList',
  binding: 'soap11',
  write: false,
};

function verdict(a: Answer, b: Answer) {
  return compareAnswers(CALL, SOAP_REQUEST, a, b, NOTHING_IGNORED);
}

it('takes XML as its namespaces mean it: prefixes, attribute order, whitespace between elements and the declaration do not count', () => {
  const a = answer(
    200,
    'text/xml; charset=utf-8',
    '<?xml version="1.0" encoding="utf-8"?>\r\n<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><r xmlns="urn:x" a="1" b="2"><v>1</v></r></soap:Body></soap:Envelope>',
  );
  const b = answer(
    200,
    'text/xml; charset=UTF-8',
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/">\n  <s:Body>\n    <q:r xmlns:q="urn:x" b="2" a="1">\n      <q:v>1</q:v>\n    </q:r>\n  </s:Body>\n</s:Envelope>',
  );
  expect(verdict(a, b).outcome).toBe('same');
  const c = answer(
    200,
    'text/xml; charset=utf-8',
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><r xmlns="urn:other" a="1" b="2"><v>1</v></r></s:Body></s:Envelope>',
  );
  expect(verdict(a, c).outcome).toBe('different');
  const d = answer(
    200,
    'text/xml; charset=utf-8',
    '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><r xmlns="urn:x" a="1" b="2"><v> 1</v></r></s:Body></s:Envelope>',
  );
  expect(verdict(a, d).differences).toEqual([{ path: 'r/v', primary: '1', candidate: ' 1' }]);
});

it('compares fault codes by namespace and name, and fault texts by value', () => {
  const fault = (prefix: string, code: string, text: string) =>
    answer(
      500,
      'text/xml; charset=utf-8',
      `<${prefix}:Envelope xmlns:${prefix}="http://schemas.xmlsoap.org/soap/envelope/"><${prefix}:Body><${prefix}:Fault><faultcode>${prefix}:${code}</faultcode><faultstring>${text}</faultstring></${prefix}:Fault></${prefix}:Body></${prefix}:Envelope>`,
    );
  expect(verdict(fault('soap', 'Client', 'Bad date'), fault('s', 'Client', 'Bad date')).outcome).toBe('same');
  expect(
    verdict(fault('soap', 'Client', 'Bad date'), fault('s', 'Client', 'Bad day')).differences.map((d) => d.path),
  ).toEqual(['Fault/faultstring']);
  expect(verdict(fault('soap', 'Client', 'x'), fault('soap', 'Server', 'x')).differences.map((d) => d.path)).toEqual([
    'Fault/faultcode',
  ]);
});

it('takes JSON by value: member order does not count, numbers compare as numbers', () => {
  const a = answer(200, 'application/json; charset=utf-8', '{"Success":true,"Data":[{"Amount":2482.620,"Code":"A"}]}');
  const b = answer(200, 'application/json; charset=utf-8', '{"Data":[{"Code":"A","Amount":2482.62}],"Success":true}');
  expect(verdict(a, b).outcome).toBe('same');
  const c = answer(200, 'application/json; charset=utf-8', '{"Data":[{"Code":"A","Amount":2483.62}],"Success":true}');
  expect(verdict(a, c).differences).toEqual([{ path: 'Data[0].Amount', primary: '2482.62', candidate: '2483.62' }]);
});

it('compares the status and the content type, and bodies over the cap by length and digest', () => {
  expect(
    verdict(answer(200, 'text/plain', 'x'), answer(500, 'text/plain', 'x')).differences.map((d) => d.path),
  ).toEqual(['(status)']);
  expect(verdict(answer(200, 'text/plain', 'x'), answer(200, 'text/html', 'x')).differences.map((d) => d.path)).toEqual(
    ['(content-type)'],
  );
  const big = { ...answer(200, 'application/json', '[1'), length: 20_000_000, truncated: true };
  const result = verdict(big, { ...big, digest: 'other' });
  expect(result).toMatchObject({ outcome: 'different', byDigest: true });
  expect(result.differences.map((d) => d.path)).toEqual(['(body)']);
});

it('counts two server faults whose texts differ as the deliberate server-fault-text, either way round', () => {
  const ours = answer(
    500,
    'text/xml; charset=utf-8',
    '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Server was unable to process request. ---&gt; An unexpected error occurred on the server.</faultstring></soap:Fault></soap:Body></soap:Envelope>',
  );
  const theirs = answer(
    500,
    'text/xml; charset=utf-8',
    '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>Server was unable to process request. ---&gt; boom</faultstring></soap:Fault></soap:Body></soap:Envelope>',
  );
  expect(verdict(ours, theirs)).toMatchObject({ outcome: 'expected', rule: 'server-fault-text' });
  expect(verdict(theirs, ours)).toMatchObject({ outcome: 'expected', rule: 'server-fault-text' });
});
