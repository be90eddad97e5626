/**
 * ?disco and the HTML help pages (docs/contract.md, "WSDL"; docs/contract.md, recorded: main-disco): the
 * discovery document's shape, the sorted operation list, the ?op= pages with the four samples, the
 * unknown-operation page, and that nothing from the request reaches a page unescaped.
 */
import request from 'supertest';
import { childrenNamed, parseXml } from '../../src/asmx/xml-tree';
import { suiteApp, type TestApp } from '../support/app';
import { MAIN_OPERATION_NAMES, MAIN_PATH, SYNC_PATH } from '../support/interface-table';

let t: TestApp;
let custom: TestApp;
suiteApp({}, (started) => (t = started));
suiteApp({ env: { API_NAMESPACE: 'urn:example:api', BASE_PATH: '/MobileApp' } }, (started) => (custom = started));

describe('?disco', () => {
  it.each([
    [MAIN_PATH, 'MobileAppWebService'],
    [SYNC_PATH, 'SyncCustomers'],
  ])('%s?disco points at the WSDL and the two SOAP bindings', async (path, service) => {
    const res = await request(t.app).get(`${path}?DISCO`).set('Host', 'legacy.example.com');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
    const root = parseXml(res.text);
    expect(root.uri).toBe('http://schemas.xmlsoap.org/disco/');
    expect(root.local).toBe('discovery');
    const url = `http://legacy.example.com${path}`;
    const contract = childrenNamed(root, 'http://schemas.xmlsoap.org/disco/scl/', 'contractRef');
    expect(contract.map((c) => c.attributes)).toEqual([{ ref: `${url}?wsdl`, docRef: url }]);
    const soap = childrenNamed(root, 'http://schemas.xmlsoap.org/disco/soap/', 'soap');
    expect(soap.map((s) => [s.attributes.address, s.attributes.binding])).toEqual([
      [url, `q1:${service}Soap`],
      [url, `q2:${service}Soap12`],
    ]);
    expect(res.text).toContain('xmlns:q1="http://tempuri.org/"');
  });

  it('is the recorded document byte for byte, with .NET line ends (docs/contract.md, recorded: main-disco)', async () => {
    const res = await request(t.app).get(`${MAIN_PATH}?disco`).set('Host', '127.0.0.1:8090');
    const url = 'http://127.0.0.1:8090/API/MobileAppWebService.asmx';
    const soap = (n: number, binding: string) =>
      `  <soap address="${url}" xmlns:q${n}="http://tempuri.org/" binding="q${n}:${binding}" xmlns="http://schemas.xmlsoap.org/disco/soap/" />`;
    expect(res.text).toBe(
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        '<discovery xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.xmlsoap.org/disco/">',
        `  <contractRef ref="${url}?wsdl" docRef="${url}" xmlns="http://schemas.xmlsoap.org/disco/scl/" />`,
        soap(1, 'MobileAppWebServiceSoap'),
        soap(2, 'MobileAppWebServiceSoap12'),
        '</discovery>',
      ].join('\r\n'),
    );
  });

  it('follows the namespace and the base path', async () => {
    const res = await request(custom.app).get(`/MobileApp${MAIN_PATH}?disco`).set('Host', 'h.example');
    expect(res.text).toContain(`ref="http://h.example/MobileApp${MAIN_PATH}?wsdl"`);
    expect(res.text).toContain('xmlns:q1="urn:example:api"');
  });
});

describe('help page', () => {
  it('lists every operation, sorted case-insensitively, each linking its ?op= page', async () => {
    const res = await request(t.app).get(MAIN_PATH);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const links = [...res.text.matchAll(/<a href="\?op=([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
    const sorted = [...MAIN_OPERATION_NAMES].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
    expect(links).toEqual(sorted.map((name) => [name, name]));
    expect(links[0][0]).toBe('ActivityApprovalRejection');
    expect(links.at(-1)?.[0]).toBe('WarrantyRequestFiles');
    expect(res.text).toContain('href="?WSDL"');
    expect(res.text).toContain('<title>MobileAppWebService Web Service</title>');
  });

  it('the sync service lists HelloWorld', async () => {
    const res = await request(t.app).get(SYNC_PATH);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<a href="?op=HelloWorld">HelloWorld</a>');
  });

  it('other query keys still give the help page', async () => {
    const res = await request(t.app).get(`${MAIN_PATH}?foo=bar`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('The following operations are supported.');
  });
});

describe('?op= pages', () => {
  it('show the four samples of an operation with parameters', async () => {
    const res = await request(t.app).get(`${MAIN_PATH}?op=getPCNList`).set('Host', 'legacy.example.com');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const text = res.text;
    for (const title of ['SOAP 1.1', 'SOAP 1.2', 'HTTP GET', 'HTTP POST']) expect(text).toContain(`<h3>${title}</h3>`);
    expect(text).toContain('SOAPAction: &quot;http://tempuri.org/getPCNList&quot;');
    expect(text).toContain('Content-Type: application/soap+xml; charset=utf-8');
    expect(text).toContain('&lt;getPCNList xmlns=&quot;http://tempuri.org/&quot;&gt;');
    expect(text).toContain('&lt;SalesOfficer&gt;string&lt;/SalesOfficer&gt;');
    expect(text).toContain('&lt;getPCNListResponse xmlns=&quot;http://tempuri.org/&quot; /&gt;');
    expect(text).toContain(
      `GET ${MAIN_PATH}/getPCNList?SalesOfficer=string&amp;Customer=string&amp;PaymentType=string&amp;PaymentMethod=string HTTP/1.1`,
    );
    expect(text).toContain(`POST ${MAIN_PATH}/getPCNList HTTP/1.1`);
    expect(text).toContain('Host: legacy.example.com');
    expect(text).toContain('Content-Type: application/json; charset=utf-8');
  });

  it('show the extra fields of an operation without contract parameters', async () => {
    const res = await request(t.app).get(`${MAIN_PATH}?op=CreateWarrantyRequest`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('&lt;CreateWarrantyRequest xmlns=&quot;http://tempuri.org/&quot;&gt;');
    expect(res.text).toMatch(/GET \/API\/MobileAppWebService\.asmx\/CreateWarrantyRequest\?CustomerCode=string&amp;/);
  });

  it('HelloWorld shows the string results', async () => {
    const res = await request(t.app).get(`${SYNC_PATH}?op=HelloWorld`);
    expect(res.text).toContain('&lt;HelloWorldResult&gt;string&lt;/HelloWorldResult&gt;');
    expect(res.text).toContain('&lt;string xmlns=&quot;http://tempuri.org/&quot;&gt;string&lt;/string&gt;');
  });

  it('follow the namespace and the base path', async () => {
    const res = await request(custom.app).get(`/MobileApp${MAIN_PATH}?op=getPCNDetails`);
    expect(res.text).toContain('SOAPAction: &quot;urn:example:apigetPCNDetails&quot;');
    expect(res.text).toContain(`POST /MobileApp${MAIN_PATH} HTTP/1.1`);
  });

  it('an unknown operation is an error page naming it', async () => {
    const res = await request(t.app).get(`${MAIN_PATH}?op=NoSuchOp`);
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('Method &#39;NoSuchOp&#39; was not found in service MobileAppWebService.');
  });

  it('operation names are case-sensitive there too', async () => {
    const res = await request(t.app).get(`${MAIN_PATH}?op=getpcnlist`);
    expect(res.status).toBe(500);
  });

  it('never reflects the request unescaped', async () => {
    const res = await request(t.app)
      .get(`${MAIN_PATH}?op=${encodeURIComponent('<script>alert("x")</script>')}`)
      .set('Host', 'h.example');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('<script>');
    expect(res.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  });
});

describe('other methods on the .asmx itself', () => {
  it.each(['put', 'delete', 'options', 'head'] as const)('%s is 405', async (method) => {
    const res = await request(t.app)[method](MAIN_PATH);
    expect(res.status).toBe(405);
  });
});
