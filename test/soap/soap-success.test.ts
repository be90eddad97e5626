/**
 * SOAP 1.1 and SOAP 1.2 successful calls through the real app on a fresh database (docs/contract.md,
 * "SOAP"; docs/contract.md, "Recorded legacy answers"): every operation of both services, answered with the
 * legacy bytes, under the default namespace and under custom namespaces with a base path.
 */
import { startTestApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import {
  MAIN_PATH,
  SOAP11_TYPE,
  SOAP12_TYPE,
  SYNC_PATH,
  emptyResponse,
  envelope,
  helloWorldResponse,
  operationElement,
  postSoap,
  wsdlOperations,
  wsdlParams,
  type Version,
} from './soap-support';

import { mainServiceOperations } from '../../src/services/registry';

const VERSIONS: Version[] = ['1.1', '1.2'];
const CONTENT_TYPE: Record<Version, string> = { '1.1': SOAP11_TYPE, '1.2': SOAP12_TYPE };
const MAIN_OPERATIONS = wsdlOperations('MobileAppWebService');
const SYNC_OPERATIONS = wsdlOperations('SyncCustomers');

test('the WSDL lists the operations the server declares, and SyncCustomers only HelloWorld', () => {
  expect([...MAIN_OPERATIONS].sort()).toEqual(mainServiceOperations.map((op) => op.name).sort());
  expect(SYNC_OPERATIONS).toEqual(['HelloWorld']);
});

describe.each(ENGINES)('SOAP success on the default settings: %s', (kind) => {
  let t: TestApp;
  const ns = 'http://tempuri.org/';
  beforeAll(async () => {
    t = await startTestApp({ kind });
  });
  afterAll(() => t.close());

  describe.each(VERSIONS)('SOAP %s', (version) => {
    test.each(MAIN_OPERATIONS)('%s answers the empty <opResponse/> (no parameters sent)', async (op) => {
      const res = await postSoap(t.app, MAIN_PATH, version, envelope(version, operationElement(op, ns)), {
        action: `"${ns}${op}"`,
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(CONTENT_TYPE[version]);
      expect(res.text).toBe(emptyResponse(version, op, ns));
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
      expect(res.headers['cache-control']).toBe('private, max-age=0');
    });

    test.each(MAIN_OPERATIONS.filter((op) => wsdlParams('MobileAppWebService', op).length > 0))(
      '%s answers the empty <opResponse/> with every parameter sent empty',
      async (op) => {
        const values = Object.fromEntries(wsdlParams('MobileAppWebService', op).map((p) => [p, '']));
        const body = envelope(version, operationElement(op, ns, values));
        const res = await postSoap(t.app, MAIN_PATH, version, body, { action: `"${ns}${op}"` });
        expect(res.status).toBe(200);
        expect(res.text).toBe(emptyResponse(version, op, ns));
      },
    );

    test('HelloWorld answers Hello World in HelloWorldResult', async () => {
      const res = await postSoap(t.app, SYNC_PATH, version, envelope(version, operationElement('HelloWorld', ns)), {
        action: `"${ns}HelloWorld"`,
      });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(CONTENT_TYPE[version]);
      expect(res.text).toBe(helloWorldResponse(version, ns));
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
      expect(res.headers['cache-control']).toBe('private, max-age=0');
    });
  });
});

describe('SOAP success: the captured requests and the lenient forms ASMX accepts', () => {
  let t: TestApp;
  const ns = 'http://tempuri.org/';
  const pcn = envelope(
    '1.1',
    operationElement('getPCNList', ns, {
      SalesOfficer: 'SO1',
      Customer: 'C1',
      PaymentType: 'PDC',
      PaymentMethod: 'CHEQUE',
    }),
  );
  const pcn12 = envelope(
    '1.2',
    operationElement('getPCNList', ns, {
      SalesOfficer: 'SO1',
      Customer: 'C1',
      PaymentType: 'PDC',
      PaymentMethod: 'CHEQUE',
    }),
  );
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  test.each([
    ['quoted SOAPAction (ok-soap11-getPCNList)', `"${ns}getPCNList"`, SOAP11_TYPE],
    ['unquoted SOAPAction (var-soap11-unquoted-soapaction)', `${ns}getPCNList`, SOAP11_TYPE],
    ['text/xml without charset (var-soap11-no-charset)', `"${ns}getPCNList"`, 'text/xml'],
    ['another charset spelling', `"${ns}getPCNList"`, 'text/xml; charset="UTF-8"'],
  ])('SOAP 1.1 with %s', async (_name, action, contentType) => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', pcn, { action, contentType });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(SOAP11_TYPE);
    expect(res.text).toBe(emptyResponse('1.1', 'getPCNList', ns));
  });

  test('SOAP 1.1 without any SOAPAction is routed by the body element and answered as 1.1 (err-soap11-missing-soapaction)', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', pcn, { action: null });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(SOAP11_TYPE);
    expect(res.text).toBe(emptyResponse('1.1', 'getPCNList', ns));
  });

  test.each([
    ['without action (ok-soap12-getPCNList)', SOAP12_TYPE],
    ['with action= (ok-soap12-action-getPCNList)', `${SOAP12_TYPE}; action="${ns}getPCNList"`],
    ['with an unquoted action= and no charset', `application/soap+xml;action=${ns}getPCNList`],
  ])(
    'SOAP 1.2 %s answers application/soap+xml; charset=utf-8 whatever the request carried',
    async (_name, contentType) => {
      const res = await postSoap(t.app, MAIN_PATH, '1.2', pcn12, { contentType });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(SOAP12_TYPE);
      expect(res.text).toBe(emptyResponse('1.2', 'getPCNList', ns));
    },
  );

  test('SOAP 1.2 HelloWorld with action= (ok-soap12-action-HelloWorld)', async () => {
    const body = envelope('1.2', operationElement('HelloWorld', ns));
    const res = await postSoap(t.app, SYNC_PATH, '1.2', body, {
      contentType: `${SOAP12_TYPE}; action="${ns}HelloWorld"`,
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe(helloWorldResponse('1.2', ns));
  });

  test.each([
    ['partial parameters (var-soap11-partial-params)', operationElement('getPCNList', ns, { SalesOfficer: 'SO1' })],
    [
      'an unknown extra parameter (var-soap11-extra-param)',
      operationElement('getPCNList', ns, { SalesOfficer: 'SO1', Bogus: 'x' }),
    ],
    [
      'wrong-case parameter names (var-soap11-wrongcase-params)',
      operationElement('getPCNList', ns, { salesofficer: 'SO1', CUSTOMER: 'C1' }),
    ],
    ['a nil parameter', `<getPCNList xmlns="${ns}"><SalesOfficer xsi:nil="true" /></getPCNList>`],
    ['an empty Body (err-soap11-envelope-empty-body)', ''],
    [
      'comments, whitespace and a processing instruction',
      `<!-- c --><?pi x?>\n  ${operationElement('getPCNList', ns)}\n`,
    ],
  ])('SOAP 1.1 with %s', async (_name, bodyXml) => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', envelope('1.1', bodyXml), { action: `"${ns}getPCNList"` });
    expect(res.status).toBe(200);
    expect(res.text).toBe(emptyResponse('1.1', 'getPCNList', ns));
  });

  test('an unknown header without mustUnderstand is ignored (var-soap11-unknown-header)', async () => {
    const body = envelope('1.1', operationElement('getPCNList', ns), '<Auth xmlns="urn:x">t</Auth>');
    const res = await postSoap(t.app, MAIN_PATH, '1.1', body, { action: `"${ns}getPCNList"` });
    expect(res.status).toBe(200);
    expect(res.text).toBe(emptyResponse('1.1', 'getPCNList', ns));
  });

  test('a mustUnderstand header addressed to another actor is not for this service', async () => {
    const header = `<Auth xmlns="urn:x" soap:mustUnderstand="1" soap:actor="urn:some-other-node">t</Auth>`;
    const res = await postSoap(t.app, MAIN_PATH, '1.1', envelope('1.1', operationElement('getPCNList', ns), header), {
      action: `"${ns}getPCNList"`,
    });
    expect(res.status).toBe(200);
  });

  test('a mustUnderstand="0" header is ignored', async () => {
    const header = `<Auth xmlns="urn:x" soap:mustUnderstand="0">t</Auth>`;
    const res = await postSoap(t.app, MAIN_PATH, '1.2', envelope('1.2', operationElement('getPCNList', ns), header));
    expect(res.status).toBe(200);
  });

  test('a body in UTF-16 with its charset is read', async () => {
    const bytes = Buffer.from(`\uFEFF${pcn.replace('encoding="utf-8"', 'encoding="utf-16"')}`, 'utf16le');
    const res = await postSoap(t.app, MAIN_PATH, '1.1', bytes, {
      action: `"${ns}getPCNList"`,
      contentType: 'text/xml; charset=utf-16',
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe(emptyResponse('1.1', 'getPCNList', ns));
  });

  test('a UTF-16 body without charset is recognised by its byte order mark', async () => {
    const bytes = Buffer.from(`\uFEFF${pcn.replace('encoding="utf-8"', 'encoding="utf-16"')}`, 'utf16le');
    const res = await postSoap(t.app, MAIN_PATH, '1.1', bytes, {
      action: `"${ns}getPCNList"`,
      contentType: 'text/xml',
    });
    expect(res.status).toBe(200);
  });

  test('an ISO-8859-1 body without charset is read by its XML declaration (the value comes back in the fault)', async () => {
    const text = envelope('1.1', operationElement('getPCNList', ns, { PaymentType: 'Jos\u00e9' })).replace(
      'encoding="utf-8"',
      'encoding="ISO-8859-1"',
    );
    const res = await postSoap(t.app, MAIN_PATH, '1.1', Buffer.from(text, 'latin1'), {
      action: `"${ns}getPCNList"`,
      contentType: 'text/xml',
    });
    expect(res.status).toBe(500);
    expect(res.text).toContain("PaymentType: 'Jos\u00e9' is not accepted");
  });

  test('the body element may use a prefix instead of a default namespace', async () => {
    const body = envelope('1.1', `<t:getPCNList xmlns:t="${ns}"><t:SalesOfficer>SO1</t:SalesOfficer></t:getPCNList>`);
    const res = await postSoap(t.app, MAIN_PATH, '1.1', body, { action: `"${ns}getPCNList"` });
    expect(res.status).toBe(200);
    expect(res.text).toBe(emptyResponse('1.1', 'getPCNList', ns));
  });
});

describe.each(VERSIONS)('SOAP %s with custom namespaces and a base path', (version) => {
  let t: TestApp;
  const apiNs = 'urn:example:mobile-app';
  const syncNs = 'https://sync.example.com/customers/';
  beforeAll(async () => {
    t = await startTestApp({ env: { BASE_PATH: '/MobileApp', API_NAMESPACE: apiNs, SYNC_NAMESPACE: syncNs } });
  });
  afterAll(() => t.close());

  test.each(MAIN_OPERATIONS)('%s answers in the configured namespace under the base path', async (op) => {
    const res = await postSoap(
      t.app,
      `/MobileApp${MAIN_PATH}`,
      version,
      envelope(version, operationElement(op, apiNs)),
      {
        action: `"${apiNs}${op}"`,
      },
    );
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(CONTENT_TYPE[version]);
    expect(res.text).toBe(emptyResponse(version, op, apiNs));
  });

  test('HelloWorld answers in the sync namespace', async () => {
    const res = await postSoap(
      t.app,
      `/MobileApp${SYNC_PATH}`,
      version,
      envelope(version, operationElement('HelloWorld', syncNs)),
      {
        action: `"${syncNs}HelloWorld"`,
      },
    );
    expect(res.status).toBe(200);
    expect(res.text).toBe(helloWorldResponse(version, syncNs));
  });

  test('the default namespace is no longer an operation of the service', async () => {
    const ns = 'http://tempuri.org/';
    const res = await postSoap(
      t.app,
      `/MobileApp${MAIN_PATH}`,
      version,
      envelope(version, operationElement('getPCNList', ns)),
      {
        action: `"${ns}getPCNList"`,
      },
    );
    expect(res.status).toBe(500);
    expect(res.text).toContain(version === '1.1' ? 'soap:Client' : 'soap:Sender');
  });

  test('the service is not served without the base path', async () => {
    const res = await postSoap(t.app, MAIN_PATH, version, envelope(version, operationElement('getPCNList', apiNs)), {
      action: `"${apiNs}getPCNList"`,
    });
    expect(res.status).toBe(404);
  });
});
