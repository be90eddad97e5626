/**
 * The checks can fail: a server that answers like the real one except for a few deliberate breaks of
 * the contract (a tiny express app in front of the real app) fails exactly the checks about those
 * breaks, and passes the rest.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import type { App } from '../../src/app';
import { runContractChecks, type CheckReport } from '../../src/contract-check';
import { startTestApp, type TestApp } from '../support/app';
import { listen, type Listening } from '../support/listen';

const NS = 'http://tempuri.org/';
const MAIN_PATH = '/API/MobileAppWebService.asmx';

/** The main WSDL with one soapAction misspelt (GetPCNList for getPCNList) and getPCNList's last parameter dropped from the schema. */
function driftedWsdl(address: string): string {
  return fs
    .readFileSync(path.join(__dirname, '../../wsdl/MobileAppWebService.wsdl'), 'utf8')
    .split('{{namespace}}')
    .join(NS)
    .split('{{address}}')
    .join(address)
    .split(`soapAction="${NS}getPCNList"`)
    .join(`soapAction="${NS}GetPCNList"`)
    .replace('<s:element minOccurs="0" maxOccurs="1" name="PaymentMethod" type="s:string" />', '');
}

function brokenServer(real: App, baseUrl: () => string): Express {
  const broken = express();
  broken.get(MAIN_PATH, (req, res, next) => {
    if (!('wsdl' in req.query)) return next();
    res
      .status(200)
      .type('text/xml; charset=utf-8')
      .send(driftedWsdl(baseUrl() + MAIN_PATH));
  });
  // SOAP 1.1 getPCNList answered without the namespace on the response element.
  broken.post(MAIN_PATH, (req, res, next) => {
    if (req.headers.soapaction !== `"${NS}getPCNList"`) return next();
    req.resume();
    res
      .status(200)
      .type('text/xml; charset=utf-8')
      .send(
        '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><getPCNListResponse /></soap:Body></soap:Envelope>',
      );
  });
  // An unknown HTTP GET method answered 404 instead of ASMX's 500 text.
  broken.get(`${MAIN_PATH}/NoSuchOp`, (_req, res) => {
    res.status(404).type('text/plain').send('Not Found');
  });
  broken.use(real);
  return broken;
}

let testApp: TestApp;
let server: Listening;
let report: CheckReport;

beforeAll(async () => {
  testApp = await startTestApp();
  await testApp.app.ready;
  let base = '';
  server = await listen(brokenServer(testApp.app, () => base));
  base = server.baseUrl;
  report = await runContractChecks({
    baseUrl: base,
    apiNamespace: NS,
    syncNamespace: NS,
    basePath: '',
    includeExtensions: true,
    contract: 'legacy',
  });
});

afterAll(async () => {
  await server.stop();
  await testApp.close();
});

const failed = () => report.results.filter((result) => result.status === 'fail').map((result) => result.id);
const detail = (id: string) => report.results.find((result) => result.id === id)?.detail ?? '';

describe('the contract checks against a server that breaks the contract', () => {
  it('fail the WSDL bindings check and name the wrong soapAction', () => {
    expect(failed()).toContain('wsdl.MobileAppWebService.bindings');
    expect(detail('wsdl.MobileAppWebService.bindings')).toContain(
      `soapAction is ${NS}GetPCNList, expected ${NS}getPCNList`,
    );
  });

  it('fail the WSDL types check and name the missing parameter', () => {
    expect(failed()).toContain('wsdl.MobileAppWebService.types');
    expect(detail('wsdl.MobileAppWebService.types')).toContain(
      'element getPCNList has parameters [SalesOfficer, Customer, PaymentType], expected [SalesOfficer, Customer, PaymentType, PaymentMethod]',
    );
  });

  it('fail the SOAP 1.1 call whose answer differs, with the body they expected', () => {
    expect(failed()).toContain('soap11.MobileAppWebService.getPCNList');
    expect(detail('soap11.MobileAppWebService.getPCNList')).toContain(
      '<getPCNListResponse xmlns=\\"http://tempuri.org/\\" />',
    );
  });

  it('fail the unknown-method check on the status', () => {
    expect(failed()).toContain('httpget.unknown-method');
    expect(detail('httpget.unknown-method')).toContain('status: expected 500, got 404');
  });

  it('pass the checks the breaks do not touch', () => {
    const passed = report.results.filter((result) => result.status === 'pass').map((result) => result.id);
    expect(passed).toEqual(
      expect.arrayContaining([
        'wsdl.MobileAppWebService.messages',
        'wsdl.SyncCustomers.bindings',
        'soap12.MobileAppWebService.getPCNList',
        'soap11.MobileAppWebService.getPCNDetails',
        'httppost.unknown-method',
        'httpget.MobileAppWebService.getPCNList',
      ]),
    );
    expect(report.passed + report.failed).toBe(report.results.length);
  });
});
