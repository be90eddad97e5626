/**
 * GET <path>?wsdl (docs/contract.md, "WSDL"): served for every spelling of the key, parsed and checked
 * against the operations and parameters of the WSDL files (test/support/interface-table.ts) in the
 * shape ASMX generates: schema, messages, portTypes, the four bindings with their soapAction, the
 * service and its four ports, with the namespace filled in and addresses rebuilt from the request.
 */
import request from 'supertest';
import { parseXml, childrenNamed, firstChildNamed, type XmlElement } from '../../src/asmx/xml-tree';
import { suiteApp, type TestApp } from '../support/app';
import { rawRequest } from '../support/raw-http';
import { MAIN_OPERATIONS, MAIN_PATH, SYNC_OPERATIONS, SYNC_PATH } from '../support/interface-table';

const WSDL = 'http://schemas.xmlsoap.org/wsdl/';
const XSD = 'http://www.w3.org/2001/XMLSchema';
const SOAP = 'http://schemas.xmlsoap.org/wsdl/soap/';
const SOAP12 = 'http://schemas.xmlsoap.org/wsdl/soap12/';
const HTTP = 'http://schemas.xmlsoap.org/wsdl/http/';
const MIME = 'http://schemas.xmlsoap.org/wsdl/mime/';

const named = (parent: XmlElement, uri: string, local: string, name: string): XmlElement => {
  const found = childrenNamed(parent, uri, local).find((e) => e.attributes.name === name);
  if (!found) throw new Error(`no ${local} named ${name}`);
  return found;
};
const only = (parent: XmlElement, uri: string, local: string): XmlElement => {
  const found = firstChildNamed(parent, uri, local);
  if (!found) throw new Error(`no ${local} in ${parent.local}`);
  return found;
};

function checkWsdl(
  root: XmlElement,
  service: string,
  ns: string,
  operations: ReadonlyArray<readonly [string, readonly string[]]>,
  returnsString: boolean,
): void {
  expect(root.uri).toBe(WSDL);
  expect(root.local).toBe('definitions');
  expect(root.attributes.targetNamespace).toBe(ns);
  const schema = only(only(root, WSDL, 'types'), XSD, 'schema');
  expect(schema.attributes).toMatchObject({ elementFormDefault: 'qualified', targetNamespace: ns });

  for (const [op, params] of operations) {
    const request = only(named(schema, XSD, 'element', op), XSD, 'complexType');
    const sequence = firstChildNamed(request, XSD, 'sequence');
    const elements = sequence ? childrenNamed(sequence, XSD, 'element') : [];
    expect(elements.map((e) => e.attributes.name)).toEqual(params);
    for (const e of elements) expect(e.attributes).toMatchObject({ minOccurs: '0', maxOccurs: '1', type: 's:string' });
    const response = only(named(schema, XSD, 'element', `${op}Response`), XSD, 'complexType');
    if (returnsString) {
      const result = childrenNamed(only(response, XSD, 'sequence'), XSD, 'element');
      expect(result.map((e) => e.attributes)).toEqual([
        { minOccurs: '0', maxOccurs: '1', name: `${op}Result`, type: 's:string' },
      ]);
    } else {
      expect(response.children).toEqual([]);
    }

    const parts = (message: string) =>
      childrenNamed(named(root, WSDL, 'message', message), WSDL, 'part').map((p) => p.attributes);
    expect(parts(`${op}SoapIn`)).toEqual([{ name: 'parameters', element: `tns:${op}` }]);
    expect(parts(`${op}SoapOut`)).toEqual([{ name: 'parameters', element: `tns:${op}Response` }]);
    for (const verb of ['HttpGet', 'HttpPost']) {
      expect(parts(`${op}${verb}In`)).toEqual(params.map((p) => ({ name: p, type: 's:string' })));
      expect(parts(`${op}${verb}Out`)).toEqual(returnsString ? [{ name: 'Body', element: 'tns:string' }] : []);
    }

    for (const portType of ['Soap', 'HttpGet', 'HttpPost']) {
      const operation = named(named(root, WSDL, 'portType', `${service}${portType}`), WSDL, 'operation', op);
      const message = portType === 'Soap' ? 'Soap' : portType;
      expect(only(operation, WSDL, 'input').attributes.message).toBe(`tns:${op}${message}In`);
      expect(only(operation, WSDL, 'output').attributes.message).toBe(`tns:${op}${message}Out`);
    }
    checkBindings(root, service, ns, op, returnsString);
  }

  for (const portType of ['Soap', 'HttpGet', 'HttpPost']) {
    expect(childrenNamed(named(root, WSDL, 'portType', `${service}${portType}`), WSDL, 'operation')).toHaveLength(
      operations.length,
    );
  }
  if (returnsString)
    expect(named(schema, XSD, 'element', 'string').attributes).toMatchObject({ nillable: 'true', type: 's:string' });
  else expect(childrenNamed(schema, XSD, 'element').some((e) => e.attributes.name === 'string')).toBe(false);
}

function checkBindings(root: XmlElement, service: string, ns: string, op: string, returnsString: boolean): void {
  for (const [suffix, uri] of [
    ['Soap', SOAP],
    ['Soap12', SOAP12],
  ] as const) {
    const binding = named(root, WSDL, 'binding', `${service}${suffix}`);
    expect(binding.attributes.type).toBe(`tns:${service}Soap`);
    expect(only(binding, uri, 'binding').attributes.transport).toBe('http://schemas.xmlsoap.org/soap/http');
    const operation = named(binding, WSDL, 'operation', op);
    expect(only(operation, uri, 'operation').attributes).toEqual({ soapAction: `${ns}${op}`, style: 'document' });
    expect(only(only(operation, WSDL, 'input'), uri, 'body').attributes).toEqual({ use: 'literal' });
    expect(only(only(operation, WSDL, 'output'), uri, 'body').attributes).toEqual({ use: 'literal' });
  }
  for (const [suffix, verb] of [
    ['HttpGet', 'GET'],
    ['HttpPost', 'POST'],
  ] as const) {
    const binding = named(root, WSDL, 'binding', `${service}${suffix}`);
    expect(binding.attributes.type).toBe(`tns:${service}${suffix}`);
    expect(only(binding, HTTP, 'binding').attributes.verb).toBe(verb);
    const operation = named(binding, WSDL, 'operation', op);
    expect(only(operation, HTTP, 'operation').attributes.location).toBe(`/${op}`);
    const input = only(operation, WSDL, 'input');
    if (verb === 'GET') expect(firstChildNamed(input, HTTP, 'urlEncoded')).toBeDefined();
    else expect(only(input, MIME, 'content').attributes.type).toBe('application/x-www-form-urlencoded');
    const output = only(operation, WSDL, 'output');
    if (returnsString) expect(only(output, MIME, 'mimeXml').attributes.part).toBe('Body');
    else expect(output.children).toEqual([]);
  }
}

function addresses(root: XmlElement, service: string): string[] {
  const svc = named(root, WSDL, 'service', service);
  const ports = childrenNamed(svc, WSDL, 'port');
  expect(ports.map((p) => [p.attributes.name, p.attributes.binding])).toEqual(
    ['Soap', 'Soap12', 'HttpGet', 'HttpPost'].map((s) => [`${service}${s}`, `tns:${service}${s}`]),
  );
  const kinds = [
    [SOAP, 'address'],
    [SOAP12, 'address'],
    [HTTP, 'address'],
    [HTTP, 'address'],
  ] as const;
  return ports.map((port, i) => only(port, kinds[i][0], kinds[i][1]).attributes.location);
}

describe.each([
  { label: 'default settings', env: {}, apiNs: 'http://tempuri.org/', syncNs: 'http://tempuri.org/', base: '' },
  {
    label: 'custom namespaces and BASE_PATH',
    env: {
      API_NAMESPACE: 'https://api.example.com/mobile/',
      SYNC_NAMESPACE: 'urn:example:sync',
      BASE_PATH: '/MobileApp',
    },
    apiNs: 'https://api.example.com/mobile/',
    syncNs: 'urn:example:sync',
    base: '/MobileApp',
  },
])('WSDL, $label', ({ env, apiNs, syncNs, base }) => {
  let t: TestApp;
  suiteApp({ env }, (started) => (t = started));

  it.each(['wsdl', 'WSDL', 'Wsdl'])('?%s serves the same text/xml document', async (key) => {
    const res = await request(t.app).get(`${base}${MAIN_PATH}?${key}`).set('Host', 'h.example');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(res.text.startsWith('<?xml version="1.0" encoding="utf-8"?>')).toBe(true);
    const reference = await request(t.app).get(`${base}${MAIN_PATH}?wsdl`).set('Host', 'h.example');
    expect(res.text).toBe(reference.text);
    expect(res.text).not.toContain('{{');
  });

  it('the main WSDL matches the contract in every part', async () => {
    const res = await request(t.app).get(`${base}${MAIN_PATH}?wsdl`).set('Host', 'h.example');
    const root = parseXml(res.text);
    checkWsdl(root, 'MobileAppWebService', apiNs, MAIN_OPERATIONS, false);
    expect(addresses(root, 'MobileAppWebService')).toEqual(Array(4).fill(`http://h.example${base}${MAIN_PATH}`));
  });

  it('the sync WSDL matches the contract', async () => {
    const res = await request(t.app).get(`${base}${SYNC_PATH}?wsdl`).set('Host', 'h.example');
    const root = parseXml(res.text);
    checkWsdl(root, 'SyncCustomers', syncNs, SYNC_OPERATIONS, true);
    expect(addresses(root, 'SyncCustomers')).toEqual(Array(4).fill(`http://h.example${base}${SYNC_PATH}`));
  });
});

describe('WSDL addresses follow the request', () => {
  let plain: TestApp;
  let proxied: TestApp;
  suiteApp({}, (started) => (plain = started));
  suiteApp({ env: { TRUST_PROXY: 'true', BASE_PATH: '/MobileApp' } }, (started) => (proxied = started));

  const addressOf = (text: string, service = 'MobileAppWebService') => addresses(parseXml(text), service)[0];
  /** A GET to Host internal:8080 with the X-Forwarded-Host and X-Forwarded-Proto a proxy sets. */
  const forwarded = (t: TestApp, path: string, host: string, proto: string) =>
    request(t.app).get(path).set('Host', 'internal:8080').set('X-Forwarded-Host', host).set('X-Forwarded-Proto', proto);

  it('takes the whole Host header, port included', async () => {
    const res = await request(plain.app).get(`${MAIN_PATH}?wsdl`).set('Host', 'legacy.example.com:8443');
    expect(addressOf(res.text)).toBe(`http://legacy.example.com:8443${MAIN_PATH}`);
  });

  it('ignores X-Forwarded-* unless TRUST_PROXY is set', async () => {
    const res = await forwarded(plain, `${MAIN_PATH}?wsdl`, 'proxy.example.com', 'https');
    expect(addressOf(res.text)).toBe(`http://internal:8080${MAIN_PATH}`);
  });

  it('follows X-Forwarded-Proto and X-Forwarded-Host with TRUST_PROXY', async () => {
    const res = await forwarded(proxied, `/MobileApp${SYNC_PATH}?wsdl`, 'proxy.example.com', 'https');
    expect(addressOf(res.text, 'SyncCustomers')).toBe(`https://proxy.example.com/MobileApp${SYNC_PATH}`);
  });

  it("of a forwarded chain takes the last entries, the ones the trusted proxy added, not the client's", async () => {
    const res = await forwarded(proxied, `/MobileApp${SYNC_PATH}?wsdl`, 'attacker.example, lb.internal', 'http, https');
    expect(addressOf(res.text, 'SyncCustomers')).toBe(`https://lb.internal/MobileApp${SYNC_PATH}`);
  });

  it('with TRUST_PROXY and no forwarded headers, uses the Host header', async () => {
    const res = await request(proxied.app).get(`/MobileApp${MAIN_PATH}?wsdl`).set('Host', 'internal:8080');
    expect(addressOf(res.text)).toBe(`http://internal:8080/MobileApp${MAIN_PATH}`);
  });

  it('a Host header that is not a host name never reaches the document', async () => {
    const res = await rawRequest(plain.app, {
      method: 'GET',
      path: `${MAIN_PATH}?wsdl`,
      headers: { Host: 'evil"><x y="' },
    });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('evil');
    expect(addressOf(res.text)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/API\/MobileAppWebService\.asmx$/);
  });

  it('without a Host header, uses the local address', async () => {
    const res = await rawRequest(plain.app, { method: 'GET', path: `${MAIN_PATH}?wsdl`, headers: { Host: '' } });
    expect(addressOf(res.text)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/API\/MobileAppWebService\.asmx$/);
  });
});
