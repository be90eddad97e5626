/**
 * Every SOAP error case of docs/contract.md ("SOAP") and of the recorded legacy answers (docs/contract.md), through
 * the real app: status, Content-Type, fault code and message, byte for byte where ASMX's bytes are
 * known (with .NET's filled-in {0}/{1}, see docs/contract.md).
 */
import { startTestApp, suiteApp, type TestApp } from '../support/app';
import {
  MAIN_PATH,
  SOAP11_NS,
  SOAP11_TYPE,
  SOAP12_NS,
  SOAP12_TYPE,
  SYNC_PATH,
  envelope,
  faultResponse,
  operationElement,
  postSoap,
  textParser,
} from './soap-support';
import request from 'supertest';

const ns = 'http://tempuri.org/';
const action = (op: string) => `"${ns}${op}"`;
const pcn11 = envelope('1.1', operationElement('getPCNList', ns, { SalesOfficer: 'SO1' }));
const pcn12 = envelope('1.2', operationElement('getPCNList', ns, { SalesOfficer: 'SO1' }));

let t: TestApp;
suiteApp({}, (started) => (t = started));

function expectFault(
  res: { status: number; headers: Record<string, string>; text: string },
  version: '1.1' | '1.2',
  code: string,
  text: string,
) {
  expect(res.status).toBe(500);
  expect(res.headers['content-type']).toBe(version === '1.1' ? SOAP11_TYPE : SOAP12_TYPE);
  expect(res.text).toBe(faultResponse(version, code, text));
  expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
}

function expectEmpty(
  res: { status: number; headers: Record<string, string>; text: string },
  status: number,
  contentType: string,
) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe(contentType);
  expect(res.headers['content-length']).toBe('0');
  expect(res.text).toBe('');
}

describe('SOAP 1.1 routing faults', () => {
  test.each([
    [
      'an unknown operation (err-soap11-wrong-soapaction)',
      '"http://tempuri.org/NoSuchOp"',
      'http://tempuri.org/NoSuchOp',
    ],
    ['an empty SOAPAction (err-soap11-empty-soapaction)', '""', ''],
    [
      'another namespace (err-soap11-wrong-ns-soapaction)',
      '"http://example.org/getPCNList"',
      'http://example.org/getPCNList',
    ],
    [
      "the other service's operation (var-soap11-sync-HelloWorld-at-main)",
      '"http://tempuri.org/HelloWorld"',
      'http://tempuri.org/HelloWorld',
    ],
    ['a different case', '"http://tempuri.org/getpcnlist"', 'http://tempuri.org/getpcnlist'],
    ['quotes on one side only', '"http://tempuri.org/getPCNList', '"http://tempuri.org/getPCNList'],
  ])('SOAPAction naming %s: Client fault naming the value', async (_name, header, shown) => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', pcn11, { action: header });
    expectFault(res, '1.1', 'Client', `Server did not recognize the value of HTTP Header SOAPAction: ${shown}.`);
  });

  test.each([
    [
      "another operation's element (err-soap11-soapaction-body-mismatch)",
      operationElement('getPCNDetails', ns, { PDCID: '1' }),
      'getPCNDetails',
      ns,
    ],
    ['an unknown element (err-soap11-unknown-body-known-action)', operationElement('NoSuchOp', ns), 'NoSuchOp', ns],
    [
      'the element without namespace (var-soap11-no-namespace)',
      '<getPCNList><SalesOfficer>SO1</SalesOfficer></getPCNList>',
      'getPCNList',
      '',
    ],
    ['the element in another namespace', operationElement('getPCNList', 'urn:other'), 'getPCNList', 'urn:other'],
  ])('a known SOAPAction with %s: Client fault, the two must agree', async (_name, bodyXml, element, elementNs) => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', envelope('1.1', bodyXml), { action: action('getPCNList') });
    expectFault(
      res,
      '1.1',
      'Client',
      `The request element <${element} xmlns='${elementNs}'> does not match the action '${ns}getPCNList'.`,
    );
  });

  test.each([
    ['an unknown element (err-soap11-unknown-op-no-soapaction)', operationElement('NoSuchOp', ns)],
    ['an empty Body', ''],
  ])('no SOAPAction and %s: Client fault asking for an action', async (_name, bodyXml) => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', envelope('1.1', bodyXml), { action: null });
    expectFault(
      res,
      '1.1',
      'Client',
      'Unable to handle request without a valid action parameter. Please supply a valid soap action.',
    );
  });
});

describe('SOAP 1.2 routing faults', () => {
  test('an unknown body element without action names the element (err-soap12-unknown-op, .NET text)', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.2', envelope('1.2', operationElement('NoSuchOp', ns)));
    expectFault(res, '1.2', 'Sender', "The request element <NoSuchOp xmlns='http://tempuri.org/'> was not recognized.");
  });

  test('a known element in another namespace is not recognized either', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.2', envelope('1.2', operationElement('getPCNList', 'urn:x')));
    expectFault(res, '1.2', 'Sender', "The request element <getPCNList xmlns='urn:x'> was not recognized.");
  });

  test('an empty Body without action: Sender fault asking for an action', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.2', envelope('1.2', ''));
    expectFault(
      res,
      '1.2',
      'Sender',
      'Unable to handle request without a valid action parameter. Please supply a valid soap action.',
    );
  });

  test('an unknown action= (err-soap12-unknown-op-action)', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.2', envelope('1.2', operationElement('NoSuchOp', ns)), {
      contentType: `${SOAP12_TYPE}; action="http://tempuri.org/NoSuchOp"`,
    });
    expectFault(
      res,
      '1.2',
      'Sender',
      "Unable to handle request. The action 'http://tempuri.org/NoSuchOp' was not recognized.",
    );
  });

  test('an action= naming another operation than the body element (err-soap12-action-body-mismatch)', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.2', pcn12, {
      contentType: `${SOAP12_TYPE}; action="${ns}getPCNDetails"`,
    });
    expectFault(
      res,
      '1.2',
      'Sender',
      `The request element <getPCNList xmlns='${ns}'> does not match the action '${ns}getPCNDetails'.`,
    );
  });

  test('a SOAPAction header on a SOAP 1.2 request plays no part in routing', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.2', pcn12, { headers: { SOAPAction: action('getPCNDetails') } });
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<getPCNListResponse xmlns="${ns}" />`);
  });
});

describe('envelope faults', () => {
  const upgrade =
    '<soap:Header><soap12:Upgrade xmlns:soap12="http://www.w3.org/2003/05/soap-envelope">' +
    '<soap12:SupportedEnvelope qname="soap:Envelope" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" />' +
    '<soap12:SupportedEnvelope qname="soap12:Envelope" xmlns:soap12="http://www.w3.org/2003/05/soap-envelope" />' +
    '</soap12:Upgrade></soap:Header>';
  const versionMismatch = (elementNs: string) =>
    faultResponse(
      '1.1',
      'VersionMismatch',
      `Possible SOAP version mismatch: Envelope namespace ${elementNs} was unexpected. Expecting ${SOAP11_NS}.`,
    ).replace('<soap:Body>', `${upgrade}<soap:Body>`);
  const notEnvelope = '<?xml version="1.0" encoding="utf-8"?>\n<foo xmlns="urn:x"><bar/></foo>';

  test.each([
    ['SOAP 1.1 (err-soap11-not-envelope)', '1.1' as const],
    ['SOAP 1.2 (err-soap12-not-envelope)', '1.2' as const],
  ])(
    'well-formed XML that is not an envelope under %s: VersionMismatch in the SOAP 1.1 shape',
    async (_name, version) => {
      const res = await postSoap(t.app, MAIN_PATH, version, notEnvelope, { action: action('getPCNList') });
      expect(res.status).toBe(500);
      expect(res.headers['content-type']).toBe(SOAP11_TYPE);
      expect(res.text).toBe(versionMismatch('urn:x'));
    },
  );

  test('a root element without namespace: VersionMismatch naming the empty namespace', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', '<Envelope><Body/></Envelope>', {
      action: action('getPCNList'),
    });
    expect(res.text).toBe(versionMismatch(''));
  });

  test('a SOAP 1.2 envelope sent as text/xml: the namespace must match the content type', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', pcn12, { action: action('getPCNList') });
    expect(res.status).toBe(500);
    expect(res.text).toBe(versionMismatch(SOAP12_NS));
  });

  test.each(['1.1', '1.2'] as const)(
    'SOAP %s envelope without Body: Client fault (err-soap11-envelope-no-body)',
    async (version) => {
      const envNs = version === '1.1' ? SOAP11_NS : SOAP12_NS;
      const body = `<?xml version="1.0" encoding="utf-8"?>\n<soap:Envelope xmlns:soap="${envNs}"></soap:Envelope>`;
      const res = await postSoap(t.app, MAIN_PATH, version, body, { action: action('getPCNList') });
      expectFault(
        res,
        version,
        version === '1.1' ? 'Client' : 'Sender',
        'Server was unable to read request. ---> Request format is invalid: Missing required soap:Body element.',
      );
    },
  );

  test('an envelope whose Body is in another namespace has no Body', async () => {
    const body = `<soap:Envelope xmlns:soap="${SOAP11_NS}"><Body xmlns="urn:x">${operationElement('getPCNList', ns)}</Body></soap:Envelope>`;
    const res = await postSoap(t.app, MAIN_PATH, '1.1', body, { action: action('getPCNList') });
    expectFault(
      res,
      '1.1',
      'Client',
      'Server was unable to read request. ---> Request format is invalid: Missing required soap:Body element.',
    );
  });

  test('a root element in the envelope namespace that is not Envelope: Client fault', async () => {
    const body = `<soap:Body xmlns:soap="${SOAP11_NS}">${operationElement('getPCNList', ns)}</soap:Body>`;
    const res = await postSoap(t.app, MAIN_PATH, '1.1', body, { action: action('getPCNList') });
    expectFault(
      res,
      '1.1',
      'Client',
      'Server was unable to read request. ---> Request format is invalid: Missing required soap:Envelope element.',
    );
  });

  test('a SOAP 1.1 envelope sent as application/soap+xml: 415, empty (var-soap11-body-to-soap12-ct)', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.2', pcn11);
    expectEmpty(res, 415, SOAP11_TYPE);
  });

  test('a malformed SOAP 1.1 envelope sent as application/soap+xml: still 415 (err-soap12-malformed-xml-11ns)', async () => {
    const res = await postSoap(
      t.app,
      MAIN_PATH,
      '1.2',
      `<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><getPCNList xmlns="${ns}"><SalesOfficer>SO1</Sales`,
    );
    expectEmpty(res, 415, SOAP11_TYPE);
  });
});

describe('malformed requests: 400 with an empty body', () => {
  const xxe =
    '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE soap:Envelope [ <!ENTITY xxe SYSTEM "file:///etc/hostname"> ]>\n' +
    `<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><getPCNList xmlns="${ns}"><SalesOfficer>&xxe;</SalesOfficer></getPCNList></soap:Body></soap:Envelope>`;
  const internalEntity = xxe.replace('<!ENTITY xxe SYSTEM "file:///etc/hostname">', '<!ENTITY xxe "internal">');
  const plainDoctype = pcn11.replace('<soap:Envelope', '<!DOCTYPE soap:Envelope>\n<soap:Envelope');
  const billionLaughs =
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>' +
    `<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><getPCNList xmlns="${ns}"><SalesOfficer>&lol3;</SalesOfficer></getPCNList></soap:Body></soap:Envelope>`;

  test.each([
    [
      'truncated XML (err-soap11-malformed-xml)',
      `<soap:Envelope xmlns:soap="${SOAP11_NS}"><soap:Body><getPCNList xmlns="${ns}"><SalesOfficer>SO1</Sales`,
    ],
    ['an XXE external entity (err-soap11-xxe-external)', xxe],
    ['a DTD with an internal entity (err-soap11-dtd-internal-entity)', internalEntity],
    ['a DOCTYPE without entities', plainDoctype],
    ['a billion-laughs DTD', billionLaughs],
    ['an undeclared entity', pcn11.replace('SO1', '&undeclared;')],
    ['an unbound prefix', pcn11.replace('<getPCNList', '<x:getPCNList').replace('</getPCNList>', '</x:getPCNList>')],
    ['text that is not XML', 'SalesOfficer=SO1'],
    ['two root elements', `${pcn11}<more/>`],
  ])('SOAP 1.1 with %s', async (_name, body) => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', body, { action: action('getPCNList') });
    expectEmpty(res, 400, SOAP11_TYPE);
  });

  test('SOAP 1.2 malformed XML answers 400 with the SOAP 1.2 content type (err-soap12-malformed-xml)', async () => {
    const res = await postSoap(
      t.app,
      MAIN_PATH,
      '1.2',
      `<soap:Envelope xmlns:soap="${SOAP12_NS}"><soap:Body><getPCNList xmlns="${ns}"><SalesOfficer>SO1</Sales`,
    );
    expectEmpty(res, 400, SOAP12_TYPE);
  });

  test('SOAP 1.2 with a DOCTYPE: 400', async () => {
    const res = await postSoap(
      t.app,
      MAIN_PATH,
      '1.2',
      pcn12.replace('<soap:Envelope', '<!DOCTYPE x [<!ENTITY e "v">]>\n<soap:Envelope'),
    );
    expectEmpty(res, 400, SOAP12_TYPE);
  });

  test('an entity is never expanded into a value: the entity request did not reach the operation', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', xxe, { action: action('getPCNList') });
    expect(res.text).not.toContain('internal');
    expect(res.status).toBe(400);
  });
});

describe('empty request bodies (docs/contract.md, recorded: err-soap11-empty-body, err-soap11-empty-body-no-action, err-soap12-empty-body)', () => {
  test('SOAP 1.1 with a SOAPAction: 400, empty', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', '', { action: action('getPCNList') });
    expectEmpty(res, 400, SOAP11_TYPE);
  });

  test('SOAP 1.1 without SOAPAction: Server fault "Root element is missing."', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', '', { action: null });
    expectFault(res, '1.1', 'Server', 'Server was unable to process request. ---> Root element is missing.');
  });

  test('SOAP 1.2: Receiver fault "Root element is missing."', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.2', '');
    expectFault(res, '1.2', 'Receiver', 'Server was unable to process request. ---> Root element is missing.');
  });
});

describe('mustUnderstand headers', () => {
  test('SOAP 1.1 mustUnderstand="1" (err-soap11-mustunderstand): MustUnderstand fault without detail', async () => {
    const body = envelope(
      '1.1',
      operationElement('getPCNList', ns),
      '<Auth xmlns="urn:x" soap:mustUnderstand="1">t</Auth>',
    );
    const res = await postSoap(t.app, MAIN_PATH, '1.1', body, { action: action('getPCNList') });
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe(SOAP11_TYPE);
    expect(res.text).toBe(faultResponse('1.1', 'MustUnderstand', 'SOAP header Auth was not understood.', false));
  });

  test('SOAP 1.2 mustUnderstand="true" (err-soap12-mustunderstand): MustUnderstand fault without Detail', async () => {
    const body = envelope(
      '1.2',
      operationElement('getPCNList', ns),
      '<Auth xmlns="urn:x" soap:mustUnderstand="true">t</Auth>',
    );
    const res = await postSoap(t.app, MAIN_PATH, '1.2', body);
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe(SOAP12_TYPE);
    expect(res.text).toBe(faultResponse('1.2', 'MustUnderstand', 'SOAP header Auth was not understood.', false));
  });

  test('the header is named as written, prefix included', async () => {
    const header = '<w:Security xmlns:w="urn:wss" soap:mustUnderstand="1"><w:Timestamp /></w:Security>';
    const res = await postSoap(t.app, MAIN_PATH, '1.1', envelope('1.1', operationElement('getPCNList', ns), header), {
      action: action('getPCNList'),
    });
    expect(res.text).toBe(faultResponse('1.1', 'MustUnderstand', 'SOAP header w:Security was not understood.', false));
  });
});

describe('media types', () => {
  test.each([
    ['application/json', '{"SalesOfficer":"SO1"}'],
    ['application/x-www-form-urlencoded', 'SalesOfficer=SO1'],
    ['text/plain', pcn11],
    ['application/xml', pcn11],
  ])('POST %s to the .asmx: 415', async (contentType, body) => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', body, { action: action('getPCNList'), contentType });
    expect(res.status).toBe(415);
    expect(res.text).toBe('');
  });

  test('POST without Content-Type: 415', async () => {
    const res = await request(t.app)
      .post(MAIN_PATH)
      .set('SOAPAction', action('getPCNList'))
      .buffer(true)
      .parse(textParser)
      .send(Buffer.from(pcn11));
    expect(res.status).toBe(415);
  });

  test('a charset this server cannot decode: 415', async () => {
    const res = await postSoap(t.app, MAIN_PATH, '1.1', pcn11, {
      action: action('getPCNList'),
      contentType: 'text/xml; charset=x-no-such-charset',
    });
    expectEmpty(res, 415, SOAP11_TYPE);
  });
});

describe('faults of the operations', () => {
  test.each([
    ['SOAP 1.1', '1.1' as const, 'Client'],
    ['SOAP 1.2', '1.2' as const, 'Sender'],
  ])('a business failure under %s is a Client/Sender fault with its message', async (_name, version, code) => {
    const body = envelope(version, operationElement('getPCNList', ns, { PaymentType: 'PT' }));
    const res = await postSoap(t.app, MAIN_PATH, version, body, { action: action('getPCNList') });
    expectFault(res, version, code, "PaymentType: 'PT' is not accepted (use one of PDC, CURRENT, ADVANCE)");
  });

  test('markup in a value comes back escaped in the fault, CDATA included', async () => {
    const body = envelope(
      '1.1',
      operationElement('getPCNList', ns, { PaymentType: '<![CDATA[</faultstring><injected/>]]>' }),
    );
    const res = await postSoap(t.app, MAIN_PATH, '1.1', body, { action: action('getPCNList') });
    expectFault(
      res,
      '1.1',
      'Client',
      "PaymentType: '</faultstring><injected/>' is not accepted (use one of PDC, CURRENT, ADVANCE)",
    );
    expect(res.text).not.toContain('<injected/>');
  });

  test('a value that is CDATA-shaped text stays text in the fault', async () => {
    const body = envelope('1.2', operationElement('getPCNList', ns, { PaymentType: '&lt;![CDATA[&lt;x/&gt;]]&gt;' }));
    const res = await postSoap(t.app, MAIN_PATH, '1.2', body);
    expectFault(
      res,
      '1.2',
      'Sender',
      "PaymentType: '<![CDATA[<x/>]]>' is not accepted (use one of PDC, CURRENT, ADVANCE)",
    );
    expect(res.text).not.toContain('<x/>');
  });
});

describe('a failure of the server itself', () => {
  let broken: TestApp;
  beforeAll(async () => {
    broken = await startTestApp();
    await broken.engine.close();
  });

  test.each([
    ['SOAP 1.1', '1.1' as const, 'Server'],
    ['SOAP 1.2', '1.2' as const, 'Receiver'],
  ])(
    'the database gone under %s: Server/Receiver fault with a fixed text, no internals',
    async (_name, version, code) => {
      const body = envelope(version, operationElement('getPCNList', ns));
      const res = await postSoap(broken.app, MAIN_PATH, version, body, { action: action('getPCNList') });
      expectFault(
        res,
        version,
        code,
        'Server was unable to process request. ---> An unexpected error occurred on the server.',
      );
    },
  );

  test('HelloWorld does not need the database', async () => {
    const res = await postSoap(broken.app, SYNC_PATH, '1.1', envelope('1.1', operationElement('HelloWorld', ns)), {
      action: action('HelloWorld'),
    });
    expect(res.status).toBe(200);
  });
});

describe('other methods on the .asmx', () => {
  test.each(['PUT', 'DELETE', 'OPTIONS', 'PATCH'])('%s: 405 "Request format is unrecognized."', async (method) => {
    const res = await request(t.app)[method.toLowerCase() as 'put'](MAIN_PATH).buffer(true).parse(textParser);
    expect(res.status).toBe(405);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.text).toContain('Request format is unrecognized.');
  });

  test.each([MAIN_PATH, `${MAIN_PATH}?wsdl`, SYNC_PATH])(
    'HEAD %s: 405 (main-head, verb-HEAD-asmx-wsdl)',
    async (url) => {
      const res = await request(t.app).head(url);
      expect(res.status).toBe(405);
    },
  );

  test('GET still reaches the documents', async () => {
    const res = await request(t.app).get(`${MAIN_PATH}?wsdl`);
    expect(res.status).toBe(200);
  });

  test('POST with path info is not SOAP', async () => {
    const res = await postSoap(t.app, `${MAIN_PATH}/`, '1.1', pcn11, { action: action('getPCNList') });
    expect(res.headers['content-type']).not.toBe(SOAP11_TYPE);
  });
});
