/**
 * How SOAP requests are routed and refused (docs/contract.md, "SOAP"; docs/contract.md, "Recorded legacy answers"
 * and "Lenient successes"). Each check names the capture it reproduces.
 */
import { expectBody, expectContentType, expectIncludes, expectStatus } from '../expect';
import type { HttpExchange } from '../http-client';
import { expectFault, postSoap } from '../soap-client';
import { FAULT_TEXT } from '../../protocol-texts';
import { operationElement, requestEnvelope, SOAP_CONTENT_TYPE, successDocument } from '../soap-messages';
import type { Check, CheckContext } from '../types';
import { check } from './check';

const MAIN = 'MobileAppWebService';
const OP = 'getPCNList';

const main = (ctx: CheckContext) => ctx.service(MAIN);
const opEnvelope = (ctx: CheckContext, version: '1.1' | '1.2', name = OP) =>
  requestEnvelope(version, operationElement(name, main(ctx).namespace));

export const soapRoutingChecks: Check[] = [
  check(
    'unquoted-soapaction',
    'soap11',
    'a SOAPAction without quotes routes like a quoted one (var-soap11-unquoted-soapaction)',
    async (ctx) => {
      const exchange = await postSoap(ctx, main(ctx), '1.1', opEnvelope(ctx, '1.1'), {
        rawSoapAction: main(ctx).namespace + OP,
      });
      expectSuccess(exchange, '1.1', main(ctx).namespace);
    },
  ),
  check(
    'no-soapaction',
    'soap11',
    'text/xml without SOAPAction is routed by the body element and answered as SOAP 1.1 (err-soap11-missing-soapaction)',
    async (ctx) => {
      const exchange = await postSoap(ctx, main(ctx), '1.1', opEnvelope(ctx, '1.1'), { action: null });
      expectSuccess(exchange, '1.1', main(ctx).namespace);
    },
  ),
  check('no-charset', 'soap11', 'text/xml without a charset is read as UTF-8 (var-soap11-no-charset)', async (ctx) => {
    const exchange = await postSoap(ctx, main(ctx), '1.1', opEnvelope(ctx, '1.1'), {
      action: main(ctx).namespace + OP,
      contentType: 'text/xml',
    });
    expectSuccess(exchange, '1.1', main(ctx).namespace);
  }),
  check(
    'empty-body-element',
    'soap11',
    'an empty soap:Body with a known SOAPAction succeeds (err-soap11-envelope-empty-body)',
    async (ctx) => {
      const exchange = await postSoap(ctx, main(ctx), '1.1', requestEnvelope('1.1', ''), {
        action: main(ctx).namespace + OP,
      });
      expectSuccess(exchange, '1.1', main(ctx).namespace);
    },
  ),
  check(
    'unknown-header',
    'soap11',
    'a header block without mustUnderstand is ignored (var-soap11-unknown-header)',
    async (ctx) => {
      const body = requestEnvelope(
        '1.1',
        operationElement(OP, main(ctx).namespace),
        '<Trace xmlns="urn:contract-check">1</Trace>',
      );
      const exchange = await postSoap(ctx, main(ctx), '1.1', body, { action: main(ctx).namespace + OP });
      expectSuccess(exchange, '1.1', main(ctx).namespace);
    },
  ),
  check(
    'no-action',
    'soap12',
    'SOAP 1.2 without an action parameter is routed by the body element (ok-soap12-getPCNList)',
    async (ctx) => {
      const exchange = await postSoap(ctx, main(ctx), '1.2', opEnvelope(ctx, '1.2'));
      expectSuccess(exchange, '1.2', main(ctx).namespace);
    },
  ),
  check(
    'unknown-soapaction',
    'soap11',
    'an unknown SOAPAction is a Client fault naming it (err-soap11-unknown-op)',
    async (ctx) => {
      const action = `${main(ctx).namespace}NoSuchOp`;
      const exchange = await postSoap(ctx, main(ctx), '1.1', opEnvelope(ctx, '1.1', 'NoSuchOp'), { action });
      expectFault(exchange, '1.1', 'client', FAULT_TEXT.unknownSoapAction(action));
    },
  ),
  check(
    'wrong-namespace-soapaction',
    'soap11',
    'a SOAPAction in another namespace is unknown (err-soap11-wrong-ns-soapaction)',
    async (ctx) => {
      const action = `urn:contract-check:other/${OP}`;
      const exchange = await postSoap(ctx, main(ctx), '1.1', opEnvelope(ctx, '1.1'), { action });
      expectFault(exchange, '1.1', 'client', FAULT_TEXT.unknownSoapAction(action));
    },
  ),
  check(
    'empty-soapaction',
    'soap11',
    'SOAPAction: "" is an unknown action (err-soap11-empty-soapaction)',
    async (ctx) => {
      const exchange = await postSoap(ctx, main(ctx), '1.1', opEnvelope(ctx, '1.1'), { rawSoapAction: '""' });
      expectFault(exchange, '1.1', 'client', FAULT_TEXT.unknownSoapAction(''));
    },
  ),
  check(
    'no-soapaction-unknown-element',
    'soap11',
    'no SOAPAction and an unknown body element asks for a valid action (err-soap11-unknown-op-no-soapaction)',
    async (ctx) => {
      const exchange = await postSoap(ctx, main(ctx), '1.1', opEnvelope(ctx, '1.1', 'NoSuchOp'), { action: null });
      expectFault(exchange, '1.1', 'client', FAULT_TEXT.noValidAction());
    },
  ),
  check(
    'unknown-action',
    'soap12',
    'an unknown action parameter is a Sender fault naming it (err-soap12-unknown-op-action)',
    async (ctx) => {
      const action = `${main(ctx).namespace}NoSuchOp`;
      const exchange = await postSoap(ctx, main(ctx), '1.2', opEnvelope(ctx, '1.2', 'NoSuchOp'), { action });
      expectFault(exchange, '1.2', 'client', FAULT_TEXT.unknownAction(action));
    },
  ),
  // Mono answers this one with the "without a valid action parameter" text (err-soap12-unknown-op);
  // .NET names the element, and docs/contract.md follows .NET.
  check(
    'unknown-element',
    'soap12',
    'an unknown body element without action is a Sender fault naming the element',
    async (ctx) => {
      const exchange = await postSoap(ctx, main(ctx), '1.2', opEnvelope(ctx, '1.2', 'NoSuchOp'));
      expectFault(exchange, '1.2', 'client', FAULT_TEXT.unknownRequestElement('NoSuchOp', main(ctx).namespace));
    },
  ),
  check(
    'other-service-operation',
    'soap11',
    'HelloWorld is not an operation of the main service (var-soap11-sync-HelloWorld-at-main)',
    async (ctx) => {
      const action = `${main(ctx).namespace}HelloWorld`;
      const exchange = await postSoap(ctx, main(ctx), '1.1', opEnvelope(ctx, '1.1', 'HelloWorld'), { action });
      expectFault(exchange, '1.1', 'client', FAULT_TEXT.unknownSoapAction(action));
    },
  ),
  check(
    'action-body-mismatch',
    'soap11',
    'a SOAPAction naming one operation with the body of another is refused with a Client fault',
    async (ctx) => {
      const exchange = await postSoap(ctx, main(ctx), '1.1', opEnvelope(ctx, '1.1', 'getPCNDetails'), {
        action: main(ctx).namespace + OP,
      });
      expectStatus(exchange, 500);
      expectContentType(exchange, SOAP_CONTENT_TYPE['1.1']);
      expectIncludes(exchange.body, '<faultcode>soap:Client</faultcode>', 'body');
    },
    true,
  ),
];

function expectSuccess(exchange: HttpExchange, version: '1.1' | '1.2', ns: string): void {
  expectStatus(exchange, 200);
  expectContentType(exchange, SOAP_CONTENT_TYPE[version]);
  expectBody(exchange, successDocument(version, OP, ns));
}
