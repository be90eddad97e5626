/**
 * `contract-check --v2`: the typed v2 contract (docs/v2.md) of a running server. The services and
 * operations come from wsdl/v2/; the types each answer is held to come from the WSDL the server serves
 * (typed-schema.ts), so the checks compare the server with its own published contract the way a
 * generated client depends on it:
 * - each v2 ?wsdl names the v2 namespace, the operations of wsdl/v2/ and this address;
 * - every operation called without parameters over SOAP 1.1 and SOAP 1.2 answers 200 with an
 *   <opResponse> valid against the WSDL, and over HTTP GET and POST a document whose root is the element
 *   the HttpGet/HttpPost output names, valid against it;
 * - an invalid date is a Client/Sender fault whose detail is a valid ServiceError with Code
 *   INVALID_PARAMETER and Field FromDate (SOAP), or status 500 with that ServiceError (HTTP).
 */
import { expectContentType, expectEqual, expectStatus, expectThat, fail } from '../expect';
import type { HttpExchange } from '../http-client';
import { V2_SERVICES, type ContractOperation, type ContractService } from '../interface';
import { postSoap } from '../soap-client';
import { ENVELOPE_NS, operationElement, requestEnvelope, SOAP_CONTENT_TYPE, type SoapVersion } from '../soap-messages';
import { WsdlTypes } from '../typed-schema';
import type { Check, CheckContext, ServiceTarget } from '../types';
import { child, children, parseXmlDocument, resolveQName, type XmlNode } from '../xml';
import { check, httpBinding, soapBinding } from './check';

const WSDL_NS = 'http://schemas.xmlsoap.org/wsdl/';
const SOAP11_BINDING_NS = 'http://schemas.xmlsoap.org/wsdl/soap/';
const XML_CONTENT_TYPE = 'text/xml; charset=utf-8';
const VERSIONS: readonly SoapVersion[] = ['1.1', '1.2'];
const VERBS = ['GET', 'POST'] as const;
/** The call whose refusal every failure check makes (a date that does not exist). */
const INVALID = { operation: 'getSalesSummaryRecords', field: 'FromDate', value: '31/02/2026' };

export const typedCallChecks: Check[] = [
  ...V2_SERVICES.map(wsdlCheck),
  ...V2_SERVICES.flatMap((service) =>
    VERSIONS.flatMap((version) => service.operations.map((op) => soapCallCheck(service, op, version))),
  ),
  ...V2_SERVICES.flatMap((service) =>
    VERBS.flatMap((verb) => service.operations.map((op) => httpCallCheck(service, op, verb))),
  ),
  ...VERSIONS.map(soapFailureCheck),
  ...VERBS.map(httpFailureCheck),
];

function wsdlCheck(contract: ContractService): Check {
  return check(
    `v2.${contract.name}`,
    'wsdl',
    `v2 ${contract.name}?wsdl names the v2 namespace, the operations of wsdl/v2/ and this address`,
    async (ctx) => {
      const service = ctx.service(contract.name);
      const wsdl = await ctx.wsdl(contract.name);
      expectEqual(wsdl.attributes.targetNamespace, service.namespace, 'targetNamespace');
      const portType = children(wsdl, WSDL_NS, 'portType').find((p) => p.attributes.name === `${contract.name}Soap`);
      const served = portType ? children(portType, WSDL_NS, 'operation').map((op) => op.attributes.name) : [];
      expectEqual(served.join(', '), contract.operations.map((op) => op.name).join(', '), 'operations');
      const port = children(child(wsdl, WSDL_NS, 'service') ?? wsdl, WSDL_NS, 'port').find(
        (p) => p.attributes.name === `${contract.name}Soap`,
      );
      expectEqual(port && child(port, SOAP11_BINDING_NS, 'address')?.attributes.location, service.url, 'soap:address');
    },
  );
}

function soapCallCheck(contract: ContractService, operation: ContractOperation, version: SoapVersion): Check {
  return check(
    `v2.${contract.name}.${operation.name}`,
    soapBinding(version),
    `SOAP ${version} v2 ${contract.name}.${operation.name} answers a typed response valid against the WSDL`,
    async (ctx) => {
      const service = ctx.service(contract.name);
      const exchange = await postSoap(
        ctx,
        service,
        version,
        requestEnvelope(version, operationElement(operation.name, service.namespace)),
        { action: service.namespace + operation.name },
      );
      expectStatus(exchange, 200);
      expectContentType(exchange, SOAP_CONTENT_TYPE[version]);
      expectValid(await typesOf(ctx, contract), soapBodyElement(exchange, version), `${operation.name}Response`);
    },
  );
}

function httpCallCheck(contract: ContractService, operation: ContractOperation, verb: 'GET' | 'POST'): Check {
  return check(
    `v2.${contract.name}.${operation.name}`,
    httpBinding(verb),
    `HTTP ${verb} v2 ${contract.name}.${operation.name} answers the typed document the WSDL declares`,
    async (ctx) => {
      const service = ctx.service(contract.name);
      const exchange = await httpCall(ctx, service, operation.name, verb, {});
      expectStatus(exchange, 200);
      expectContentType(exchange, XML_CONTENT_TYPE);
      const root = await httpOutputElement(ctx, contract, operation.name, verb);
      expectValid(await typesOf(ctx, contract), document(exchange), root);
    },
  );
}

function soapFailureCheck(version: SoapVersion): Check {
  const code = version === '1.1' ? 'Client' : 'Sender';
  return check(
    'v2.fault',
    soapBinding(version),
    `SOAP ${version} v2: an invalid parameter is a soap:${code} fault whose detail is the ServiceError naming it`,
    async (ctx) => {
      const main = V2_SERVICES[0];
      const service = ctx.service(main.name);
      const body = operationElement(INVALID.operation, service.namespace, { [INVALID.field]: INVALID.value });
      const exchange = await postSoap(ctx, service, version, requestEnvelope(version, body), {
        action: service.namespace + INVALID.operation,
      });
      expectStatus(exchange, 500);
      expectContentType(exchange, SOAP_CONTENT_TYPE[version]);
      const fault = soapBodyElement(exchange, version);
      expectThat(fault.local === 'Fault', `expected a Fault in the Body, got ${fault.local}`);
      const faultCode =
        version === '1.1'
          ? child(fault, '', 'faultcode')?.text
          : child(child(fault, ENVELOPE_NS['1.2'], 'Code') ?? fault, ENVELOPE_NS['1.2'], 'Value')?.text;
      expectEqual(faultCode?.trim().split(':').pop(), code, 'fault code');
      const detail = version === '1.1' ? child(fault, '', 'detail') : child(fault, ENVELOPE_NS['1.2'], 'Detail');
      const error = detail?.children[0];
      if (!error) fail('the fault has no detail element');
      expectServiceError(await typesOf(ctx, main), error);
    },
  );
}

function httpFailureCheck(verb: 'GET' | 'POST'): Check {
  return check(
    'v2.failure',
    httpBinding(verb),
    `HTTP ${verb} v2: an invalid parameter answers 500 with the ServiceError naming it`,
    async (ctx) => {
      const main = V2_SERVICES[0];
      const exchange = await httpCall(ctx, ctx.service(main.name), INVALID.operation, verb, {
        [INVALID.field]: INVALID.value,
      });
      expectStatus(exchange, 500);
      expectContentType(exchange, XML_CONTENT_TYPE);
      expectServiceError(await typesOf(ctx, main), document(exchange));
    },
  );
}

function expectServiceError(types: WsdlTypes, element: XmlNode): void {
  expectValid(types, element, 'ServiceError');
  expectEqual(child(element, types.targetNamespace, 'Code')?.text, 'INVALID_PARAMETER', 'ServiceError Code');
  expectEqual(child(element, types.targetNamespace, 'Field')?.text, INVALID.field, 'ServiceError Field');
}

function expectValid(types: WsdlTypes, element: XmlNode, declared: string): void {
  const problems = types.elementProblems(element, declared);
  if (problems.length > 0) fail(`not valid against the WSDL's ${declared}: ${problems.join('; ')}`);
}

/** The served WSDL's types, read once per service and run. */
const typeCache = new WeakMap<XmlNode, WsdlTypes>();
async function typesOf(ctx: CheckContext, contract: ContractService): Promise<WsdlTypes> {
  const wsdl = await ctx.wsdl(contract.name);
  let types = typeCache.get(wsdl);
  if (!types) typeCache.set(wsdl, (types = new WsdlTypes(wsdl)));
  return types;
}

/** The element the served WSDL's HttpGet or HttpPost output message names (its Body part). */
async function httpOutputElement(
  ctx: CheckContext,
  contract: ContractService,
  operation: string,
  verb: 'GET' | 'POST',
): Promise<string> {
  const wsdl = await ctx.wsdl(contract.name);
  const name = `${operation}${verb === 'GET' ? 'HttpGet' : 'HttpPost'}Out`;
  const message = children(wsdl, WSDL_NS, 'message').find((m) => m.attributes.name === name);
  const part = message && child(message, WSDL_NS, 'part');
  const element = part && resolveQName(part, part.attributes.element);
  if (!element) fail(`the WSDL's message ${name} names no element`);
  return element.local;
}

function httpCall(
  ctx: CheckContext,
  service: ServiceTarget,
  operation: string,
  verb: 'GET' | 'POST',
  values: Record<string, string>,
): Promise<HttpExchange> {
  const query = new URLSearchParams(values).toString();
  if (verb === 'GET')
    return ctx.send({ method: 'GET', path: `${service.path}/${operation}${query ? `?${query}` : ''}` });
  return ctx.send({
    method: 'POST',
    path: `${service.path}/${operation}`,
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: query,
  });
}

function document(exchange: HttpExchange): XmlNode {
  try {
    return parseXmlDocument(exchange.body);
  } catch (error) {
    return fail(`the answer is not XML: ${(error as Error).message}`);
  }
}

function soapBodyElement(exchange: HttpExchange, version: SoapVersion): XmlNode {
  const envelope = document(exchange);
  const body = child(envelope, ENVELOPE_NS[version], 'Body');
  const element = body?.children[0];
  if (!element) fail('the envelope has no Body element');
  return element;
}
