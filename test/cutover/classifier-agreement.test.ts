/**
 * One classifier (src/classifier): the same requests, of every binding, both contracts, documents,
 * unknown operations and the spellings that once fooled the proxy, go to a real server and to the
 * proxy's classification. The server's log line says which binding, service and operation it took
 * each for; the proxy must say the same, and take for a write whatever the server did not run as a
 * declared read.
 */
import { classifyRequest, serviceTable } from '../../src/classifier';
import { serviceShapes } from '../../src/services/mobile-app';
import { mainServiceOperations } from '../../src/services/registry';
import { classify, trafficOf, trafficSettings } from '../../src/cutover/traffic';
import { startOpsApp, type OpsApp } from '../ops/ops-support';
import { listen, type Listening } from '../support/listen';
import { rawRequest, soapCall, type RawRequest } from './shadow-support';

const SOAP11 = 'text/xml; charset=utf-8';
const SOAP12 = 'application/soap+xml; charset=utf-8';
const ENV11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const ENV12 = 'http://www.w3.org/2003/05/soap-envelope';
const READS = new Set(
  mainServiceOperations
    .filter((op) => op.kind === 'read')
    .map((op) => op.name)
    .concat('HelloWorld'),
);

/** The requests, for a server at `base` whose main namespace is `ns`. */
function requests(base: string, ns: string): [string, RawRequest][] {
  const main = `${base}/API/MobileAppWebService.asmx`;
  const v2 = `${base}/API/v2/MobileAppWebService.asmx`;
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const envelope = (envNs: string, inner: string) =>
    `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${envNs}"><soap:Body>${inner}</soap:Body></soap:Envelope>`;
  const warranty = (prefix = '') =>
    `<${prefix}CreateWarrantyRequest xmlns${prefix ? `:${prefix.slice(0, -1)}` : ''}="${ns}"><ClientRequestId>agree</ClientRequestId></${prefix}CreateWarrantyRequest>`;
  return [
    ['HTTP GET read', { method: 'GET', path: `${main}/getPCNList?SalesOfficer=SO01` }],
    ['HTTP POST read', { method: 'POST', path: `${main}/FillAreaManagers`, headers: form, body: 'username=admin' }],
    [
      'HTTP POST write, percent-encoded name',
      { method: 'POST', path: `${main}/CreateWarranty%52equest`, headers: form, body: 'ClientRequestId=agree-1' },
    ],
    [
      'HTTP POST write, lower-case service path',
      {
        method: 'POST',
        path: `${main.toLowerCase()}/CreateWarrantyRequest`,
        headers: form,
        body: 'ClientRequestId=agree-2',
      },
    ],
    [
      'HTTP POST, lower-case method name',
      { method: 'POST', path: `${main}/createwarrantyrequest`, headers: form, body: 'ClientRequestId=agree-3' },
    ],
    ['HTTP GET, unknown operation', { method: 'GET', path: `${main}/NoSuchOperation` }],
    ['HTTP GET, no method name', { method: 'GET', path: `${main}/` }],
    ['HTTP GET, broken percent-encoding', { method: 'GET', path: `${main}/getPCN%ZZList` }],
    ['PUT under the .asmx', { method: 'PUT', path: `${main}/getPCNList` }],
    ['v2 HTTP GET', { method: 'GET', path: `${v2}/FillAreaManagers?username=admin` }],
    ['SyncCustomers HTTP GET', { method: 'GET', path: `${base}/API/SyncCustomers.asmx/HelloWorld` }],
    ['SOAP 1.1 read', soapCall('1.1', main, ns, 'getPCNList', { SalesOfficer: 'SO01' })],
    ['SOAP 1.2 read', soapCall('1.2', main, ns, 'FillAreaManagers', { username: 'admin' })],
    ['v2 SOAP 1.1', soapCall('1.1', v2, `${ns}v2/`, 'FillAreaManagers', { username: 'admin' })],
    [
      'SOAP 1.2, another operation in a SOAPAction header',
      {
        method: 'POST',
        path: main,
        headers: { 'content-type': SOAP12, soapaction: `"${ns}getPCNList"` },
        body: envelope(ENV12, warranty()),
      },
    ],
    [
      'SOAP 1.1 without SOAPAction, a comment before the element',
      {
        method: 'POST',
        path: main,
        headers: { 'content-type': SOAP11 },
        body: envelope(ENV11, `<!--x-->${warranty()}`),
      },
    ],
    [
      'SOAP 1.1, prefixed body element',
      {
        method: 'POST',
        path: main,
        headers: { 'content-type': SOAP11, soapaction: `"${ns}CreateWarrantyRequest"` },
        body: envelope(ENV11, warranty('m:')),
      },
    ],
    [
      'SOAP 1.1, envelope cut short',
      {
        method: 'POST',
        path: main,
        headers: { 'content-type': SOAP11, soapaction: `"${ns}CreateWarrantyRequest"` },
        body: envelope(ENV11, warranty()).slice(0, -40),
      },
    ],
    [
      'SOAP 1.2, action and body disagree',
      {
        method: 'POST',
        path: main,
        headers: { 'content-type': `${SOAP12}; action="${ns}getPCNList"` },
        body: envelope(ENV12, warranty()),
      },
    ],
    [
      'SOAP 1.1, unknown action',
      {
        method: 'POST',
        path: main,
        headers: { 'content-type': SOAP11, soapaction: `"${ns}NoSuchOp"` },
        body: envelope(ENV11, `<NoSuchOp xmlns="${ns}" />`),
      },
    ],
    [
      'SOAP 1.2, unknown element',
      {
        method: 'POST',
        path: main,
        headers: { 'content-type': SOAP12 },
        body: envelope(ENV12, `<NoSuchOp xmlns="${ns}" />`),
      },
    ],
    [
      'SOAP 1.2 envelope as text/xml',
      {
        method: 'POST',
        path: main,
        headers: { 'content-type': SOAP11, soapaction: `"${ns}getPCNList"` },
        body: envelope(ENV12, `<getPCNList xmlns="${ns}" />`),
      },
    ],
    [
      'SOAP, a mustUnderstand header',
      {
        method: 'POST',
        path: main,
        headers: { 'content-type': SOAP11 },
        body: `<soap:Envelope xmlns:soap="${ENV11}"><soap:Header><x:Y xmlns:x="urn:x" soap:mustUnderstand="1" /></soap:Header><soap:Body><getPCNList xmlns="${ns}" /></soap:Body></soap:Envelope>`,
      },
    ],
    [
      'POST to the .asmx, not a SOAP media type',
      { method: 'POST', path: main, headers: { 'content-type': 'text/plain' }, body: 'x' },
    ],
    [
      'POST to the .asmx, <Body repeated',
      { method: 'POST', path: main, headers: { 'content-type': SOAP11 }, body: '<Body'.repeat(13_107) },
    ],
    ['WSDL', { method: 'GET', path: `${main}?WSDL` }],
    ['disco', { method: 'GET', path: `${main}?disco` }],
    ['help page', { method: 'GET', path: main }],
    ['operation page', { method: 'GET', path: `${main}?op=getPCNList` }],
    ['operation page, unknown name', { method: 'GET', path: `${main}?op=Nope` }],
    ['HEAD on the .asmx', { method: 'HEAD', path: main }],
    ['OpenAPI document', { method: 'GET', path: `${base}/API/openapi.json` }],
    ['another path', { method: 'GET', path: `${base}/nowhere` }],
  ];
}

for (const [title, env] of [
  ['default settings', {}],
  ['a base path and a namespace of its own', { BASE_PATH: '/Mobile', API_NAMESPACE: 'http://example.com/api/' }],
] as const) {
  describe(`the server and the proxy classify alike, ${title}`, () => {
    let ops: OpsApp;
    let server: Listening;
    beforeAll(async () => {
      ops = await startOpsApp('sqlite', env);
      await ops.app.ready;
      server = await listen(ops.app);
    });
    afterAll(async () => {
      await server?.stop();
      await ops?.close();
    });

    const base = 'BASE_PATH' in env ? env.BASE_PATH : '';
    const ns = 'API_NAMESPACE' in env ? env.API_NAMESPACE : 'http://tempuri.org/';
    it.each(requests(base, ns))('%s', async (_name, request) => {
      const reqId = `agree-${Math.random().toString(36).slice(2)}`;
      const headers = { ...request.headers, 'x-request-id': reqId };
      await rawRequest(server.port, { ...request, headers });
      const line = await ops.log.find((l) => l.reqId === reqId);

      const settings = trafficSettings(env);
      const body = Buffer.from(request.body ?? '');
      const head = { method: request.method, url: request.path, headers };
      const { kind } = await classifyRequest(serviceTable(settings.basePath, serviceShapes(settings)), head, body, {
        maxDepth: settings.maxXmlDepth,
        maxNodes: settings.maxXmlNodes,
      });
      const classified = {
        binding: kind.binding ?? 'other',
        service: kind.service?.name ?? 'none',
        operation: kind.operation ?? 'unknown',
      };
      expect(classified).toEqual({ binding: line.binding, service: line.service, operation: line.operation });

      const ranRead =
        READS.has(String(line.operation)) && (line.outcome === 'success' || line.outcome === 'business_error');
      const reads = line.binding === 'document' || (line.service === 'none' && request.method === 'GET') || ranRead;
      expect((await classify(trafficOf(settings), head, body)).write).toBe(!reads);
    });
  });
}
