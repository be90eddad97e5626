/**
 * The served WSDL documents are valid against the published schemas (xmllint from libxml2-utils):
 * - each ?wsdl, with both services' namespaces at their defaults and custom, against the WSDL 1.1
 *   schema (test/schemas/wsdl.xsd, http://schemas.xmlsoap.org/wsdl/);
 * - the embedded s:schema, extracted to a file, is compiled by libxml2's schema parser, which applies
 *   the constraints of the XML Schema schema (the schema-for-schemas, "s4s-*" errors) itself, and then
 *   validates the request elements of every operation, so the schema is proven usable, not only read.
 * Each check is also shown to fail for a broken document. Without xmllint, jest.config.js leaves this
 * file out of the run and test/support/global-setup.ts says so.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONTRACT_SERVICES } from '../../src/contract-check/interface';
import { listenTestApp, type ListeningApp } from '../support/listen';
import { seed } from '../../src/demo-data';
import { escapeXmlText } from '../../src/asmx/xml-escape';
import { demoDataCalls } from '../../src/demo-data/operation-calls';
import { nameCustomerNonAscii } from '../support/operation-inputs';

const WSDL_XSD = path.join(__dirname, '..', 'schemas', 'wsdl.xsd');

interface Xmllint {
  ok: boolean;
  output: string;
}

function xmllint(schema: string, files: string[]): Xmllint {
  const result = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schema, ...files], { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

/** The s:schema element of a WSDL as a schema document of its own (namespace declarations added). */
function extractSchema(wsdl: string, ns: string): string {
  const start = wsdl.indexOf('<s:schema');
  const end = wsdl.indexOf('</s:schema>') + '</s:schema>'.length;
  if (start < 0 || end < start) throw new Error('the WSDL has no s:schema');
  const schema = wsdl
    .slice(start, end)
    .replace('<s:schema', `<s:schema xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="${ns}"`);
  return `<?xml version="1.0" encoding="utf-8"?>\n${schema}\n`;
}

function requestElement(name: string, params: readonly string[], ns: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<${name} xmlns="${ns}">${params.map((p) => `<${p}>v</${p}>`).join('')}</${name}>\n`;
}

const SETTINGS = [
  { label: 'default namespaces', env: {} as Record<string, string>, basePath: '' },
  {
    label: 'custom namespaces and base path',
    env: {
      API_NAMESPACE: 'urn:example:mobile-app',
      SYNC_NAMESPACE: 'http://example.com/sync/',
      BASE_PATH: '/MobileApp',
    },
    basePath: '/MobileApp',
  },
];

describe.each(SETTINGS)('served WSDL documents against the published schemas: $label', ({ env, basePath }) => {
  let server: ListeningApp;
  let dir: string;
  const wsdls = new Map<string, string>();

  beforeAll(async () => {
    server = await listenTestApp({ env });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsdl-schema-'));
    for (const service of CONTRACT_SERVICES) {
      const res = await fetch(`${server.baseUrl}${basePath}/API/${service.name}.asmx?wsdl`);
      expect(res.status).toBe(200);
      wsdls.set(service.name, await res.text());
    }
  });
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await server.stop();
  });

  const namespaceOf = (name: string) =>
    (name === 'SyncCustomers' ? env.SYNC_NAMESPACE : env.API_NAMESPACE) ?? 'http://tempuri.org/';
  const write = (file: string, text: string) => {
    const full = path.join(dir, file);
    fs.writeFileSync(full, text);
    return full;
  };

  it.each(CONTRACT_SERVICES.map((s) => [s.name]))('%s?wsdl is valid against the WSDL 1.1 schema', (name) => {
    const result = xmllint(WSDL_XSD, [write(`${name}.wsdl`, wsdls.get(name)!)]);
    expect(result.output).toContain('validates');
    expect(result.ok).toBe(true);
  });

  it.each(CONTRACT_SERVICES.map((s) => [s.name]))(
    '%s: the embedded s:schema compiles and validates every request element',
    (name) => {
      const contract = CONTRACT_SERVICES.find((s) => s.name === name)!;
      const ns = namespaceOf(name);
      const schema = write(`${name}.xsd`, extractSchema(wsdls.get(name)!, ns));
      const instances = contract.operations.map((op) =>
        write(`${name}-${op.name}.xml`, requestElement(op.name, op.params, ns)),
      );
      const result = xmllint(schema, instances);
      expect(result.output).not.toContain('error');
      expect(result.ok).toBe(true);
    },
  );

  it('a WSDL that breaks the WSDL 1.1 schema fails (a portType without name)', () => {
    const broken = wsdls
      .get('MobileAppWebService')!
      .replace('<wsdl:portType name="MobileAppWebServiceSoap">', '<wsdl:portType>');
    const result = xmllint(WSDL_XSD, [write('broken.wsdl', broken)]);
    expect(result.ok).toBe(false);
    expect(result.output).toContain("The attribute 'name' is required but missing");
  });

  it('an s:schema that breaks the XML Schema rules fails to compile, and a request with parameters out of order fails', () => {
    const ns = namespaceOf('MobileAppWebService');
    const schema = extractSchema(wsdls.get('MobileAppWebService')!, ns);
    const invalidSchema = write(
      'invalid.xsd',
      schema.replace('<s:element name="getPCNList">', '<s:element name="getPCNList" type="s:string">'),
    );
    const anyInstance = write('any.xml', requestElement('getPCNList', [], ns));
    const compiled = xmllint(invalidSchema, [anyInstance]);
    expect(compiled.ok).toBe(false);
    expect(compiled.output).toContain('Schemas parser error');
    const validSchema = write('valid.xsd', schema);
    const outOfOrder = write('out-of-order.xml', requestElement('getPCNList', ['Customer', 'SalesOfficer'], ns));
    const result = xmllint(validSchema, [outOfOrder]);
    expect(result.ok).toBe(false);
    expect(result.output).toContain('fails to validate');
  });
});

/**
 * The typed v2 contract (docs/v2.md): both v2 documents are valid WSDL 1.1, their schema compiles,
 * and the real answers of every call of every operation on demo data (the HTTP GET document, and the
 * <opResponse> of the SOAP 1.2 envelope) validate against it, so what the server writes is what the
 * WSDL promises to every client generated from it.
 */
describe('the v2 WSDL documents and the answers they describe', () => {
  let server: ListeningApp;
  let dir: string;
  const V2_NS = 'http://tempuri.org/v2/';
  const write = (file: string, text: string) => {
    const full = path.join(dir, file);
    fs.writeFileSync(full, text);
    return full;
  };

  beforeAll(async () => {
    server = await listenTestApp({ clock: { now: () => new Date('2026-05-15T10:00:00Z') } });
    await seed(server.engine, { scale: 0.03, asOf: '2026-05-15' });
    await nameCustomerNonAscii(server.engine.db);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wsdl-v2-'));
  }, 120_000);
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await server.stop();
  });

  it.each([['MobileAppWebService'], ['SyncCustomers']])(
    'v2 %s?wsdl is valid against the WSDL 1.1 schema and its schema compiles',
    async (name) => {
      const wsdl = await (await fetch(`${server.baseUrl}/API/v2/${name}.asmx?wsdl`)).text();
      const result = xmllint(WSDL_XSD, [write(`v2-${name}.wsdl`, wsdl)]);
      expect(result.output).toContain('validates');
      expect(result.ok).toBe(true);
      const compiled = xmllint(write(`v2-${name}.xsd`, extractSchema(wsdl, V2_NS)), [
        write(
          `v2-${name}-hello.xml`,
          requestElement(name === 'SyncCustomers' ? 'HelloWorld' : 'getPCNList', [], V2_NS),
        ),
      ]);
      expect(compiled.output).not.toContain('error');
      expect(compiled.ok).toBe(true);
    },
  );

  it('every answer of every operation validates against the v2 schema, over HTTP GET and SOAP 1.2', async () => {
    const wsdl = await (await fetch(`${server.baseUrl}/API/v2/MobileAppWebService.asmx?wsdl`)).text();
    const schema = write('v2-main.xsd', extractSchema(wsdl, V2_NS));
    const calls = await demoDataCalls(server.engine.db);
    const answers: string[] = [];
    for (const [operation, list] of Object.entries(calls)) {
      for (const [i, fields] of list.entries()) {
        const query = new URLSearchParams(fields).toString();
        const get = await fetch(`${server.baseUrl}/API/v2/MobileAppWebService.asmx/${operation}?${query}`);
        if (get.status !== 200) continue; // a business failure: its ServiceError is checked below
        answers.push(write(`${operation}-${i}-get.xml`, await get.text()));
        const args = Object.entries(fields)
          .map(([k, v]) => `<${k}>${escapeXmlText(v)}</${k}>`)
          .join('');
        const soap = await fetch(`${server.baseUrl}/API/v2/MobileAppWebService.asmx`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/soap+xml; charset=utf-8' },
          body: `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><${operation} xmlns="${V2_NS}">${args}</${operation}></soap:Body></soap:Envelope>`,
        });
        const envelope = await soap.text();
        const body = envelope.slice(
          envelope.indexOf('<soap:Body>') + '<soap:Body>'.length,
          envelope.indexOf('</soap:Body>'),
        );
        // The response element as a document of its own, with the prefixes the envelope declared.
        answers.push(
          write(
            `${operation}-${i}-soap.xml`,
            body.replace(/^<(\w+) xmlns=/, '<$1 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns='),
          ),
        );
      }
    }
    const failure = await fetch(`${server.baseUrl}/API/v2/MobileAppWebService.asmx/getPCNList?PaymentType=X`);
    expect(failure.status).toBe(500);
    answers.push(write('failure.xml', await failure.text()));
    expect(answers.length).toBeGreaterThan(60);
    const result = xmllint(schema, answers);
    expect(result.output).not.toContain('fails to validate');
    expect(result.ok).toBe(true);
    // And an answer off the schema fails: a money value with an exponent.
    const broken = write(
      'broken.xml',
      fs.readFileSync(answers[0], 'utf8').replace(/<Value>[^<]*<\/Value>/, '<Value>1e3</Value>'),
    );
    expect(fs.readFileSync(broken, 'utf8')).toContain('<Value>1e3</Value>');
    expect(xmllint(schema, [broken]).ok).toBe(false);
  }, 120_000);
});
