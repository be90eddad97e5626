/**
 * Requests refused before an operation runs, and failures of an operation (docs/contract.md, "SOAP":
 * faults, malformed XML, DOCTYPE, media types, mustUnderstand; docs/behaviour.md, "Result format").
 */
import { expectContentType, expectIncludes, expectStatus } from '../expect';
import { expectFault, postSoap } from '../soap-client';
import { FAULT_TEXT } from '../../protocol-texts';
import { ENVELOPE_NS, operationElement, requestEnvelope, SOAP_CONTENT_TYPE, type SoapVersion } from '../soap-messages';
import type { Check, CheckContext } from '../types';
import { check, soapBinding } from './check';

const MAIN = 'MobileAppWebService';
const OP = 'getPCNList';
const main = (ctx: CheckContext) => ctx.service(MAIN);
const action = (ctx: CheckContext) => main(ctx).namespace + OP;

function perVersion(
  id: string,
  title: string,
  run: (ctx: CheckContext, version: SoapVersion) => Promise<void>,
  extension = false,
): Check[] {
  return (['1.1', '1.2'] as const).map((version) =>
    check(id, soapBinding(version), `SOAP ${version}: ${title}`, (ctx) => run(ctx, version), extension),
  );
}

export const soapEnvelopeChecks: Check[] = [
  ...perVersion(
    'not-an-envelope',
    'a well-formed document that is not an envelope is a VersionMismatch fault (err-soap11-not-envelope)',
    async (ctx, version) => {
      const exchange = await postSoap(ctx, main(ctx), version, '<foo xmlns="urn:contract-check" />', {
        action: action(ctx),
      });
      expectFault(
        exchange,
        version,
        'versionMismatch',
        FAULT_TEXT.versionMismatch('urn:contract-check', ENVELOPE_NS['1.1']),
      );
    },
  ),
  ...perVersion(
    'no-body',
    'an Envelope without Body is a Client fault (err-soap11-envelope-no-body)',
    async (ctx, version) => {
      const body = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ENVELOPE_NS[version]}"><soap:Header /></soap:Envelope>`;
      const exchange = await postSoap(ctx, main(ctx), version, body, { action: action(ctx) });
      expectFault(exchange, version, 'client', FAULT_TEXT.missingBody());
    },
  ),
  ...perVersion(
    'no-envelope',
    'a root element in the envelope namespace that is not Envelope is a Client fault',
    async (ctx, version) => {
      const body = `<?xml version="1.0" encoding="utf-8"?><soap:Body xmlns:soap="${ENVELOPE_NS[version]}">${operationElement(OP, main(ctx).namespace)}</soap:Body>`;
      const exchange = await postSoap(ctx, main(ctx), version, body, { action: action(ctx) });
      expectFault(exchange, version, 'client', FAULT_TEXT.missingEnvelope());
    },
  ),
  ...perVersion('malformed-xml', 'malformed XML is 400 (err-soap11-malformed-xml)', async (ctx, version) => {
    const body = requestEnvelope(version, operationElement(OP, main(ctx).namespace)).replace(
      '</soap:Body>',
      '</soap:Bdy>',
    );
    const exchange = await postSoap(ctx, main(ctx), version, body, { action: action(ctx) });
    expectStatus(exchange, 400);
  }),
  ...perVersion(
    'doctype',
    'a DOCTYPE is refused with 400 and no entity is expanded (err-soap11-dtd-internal-entity)',
    async (ctx, version) => {
      const envelope = requestEnvelope(
        version,
        `<${OP} xmlns="${main(ctx).namespace}"><Customer>&probe;</Customer></${OP}>`,
      );
      const body = envelope.replace(
        '<soap:Envelope',
        '<!DOCTYPE soap:Envelope [<!ENTITY probe "contract-check-entity">]><soap:Envelope',
      );
      const exchange = await postSoap(ctx, main(ctx), version, body, { action: action(ctx) });
      expectStatus(exchange, 400);
    },
  ),
  ...perVersion(
    'must-understand',
    'an unknown header with mustUnderstand is a MustUnderstand fault (err-soap11-mustunderstand)',
    async (ctx, version) => {
      const flag = version === '1.1' ? '1' : 'true';
      const header = `<Auth xmlns="urn:contract-check" soap:mustUnderstand="${flag}">t</Auth>`;
      const body = requestEnvelope(version, operationElement(OP, main(ctx).namespace), header);
      const exchange = await postSoap(ctx, main(ctx), version, body, { action: action(ctx) });
      expectFault(exchange, version, 'mustUnderstand', FAULT_TEXT.headerNotUnderstood('Auth'));
    },
  ),
  ...perVersion(
    'business-fault',
    'invalid input is a Client/Sender fault with the message of docs/behaviour.md',
    async (ctx, version) => {
      const body = requestEnvelope(
        version,
        operationElement('getSalesSummaryRecords', main(ctx).namespace, { FromDate: '31/02/2026' }),
      );
      const exchange = await postSoap(ctx, main(ctx), version, body, {
        action: `${main(ctx).namespace}getSalesSummaryRecords`,
      });
      expectStatus(exchange, 500);
      expectContentType(exchange, SOAP_CONTENT_TYPE[version]);
      const code =
        version === '1.1' ? '<faultcode>soap:Client</faultcode><faultstring>' : '<soap:Value>soap:Sender</soap:Value>';
      expectIncludes(exchange.body, code, 'body');
      expectIncludes(exchange.body, "FromDate: '31/02/2026' is not a date", 'body');
    },
    true,
  ),
  {
    id: 'soap12.soap11-envelope',
    title: 'a SOAP 1.1 envelope sent as application/soap+xml is 415 (var-soap11-body-to-soap12-ct)',
    binding: 'soap12',
    extension: false,
    async run(ctx) {
      const exchange = await postSoap(
        ctx,
        main(ctx),
        '1.2',
        requestEnvelope('1.1', operationElement(OP, main(ctx).namespace)),
      );
      expectStatus(exchange, 415);
    },
  },
  // Mono answers a form POST to the .asmx with a Receiver fault ("Data at the root level is
  // invalid", err-httppost-form-to-asmx); docs/contract.md follows .NET: any other media type is 415.
  {
    id: 'soap11.unsupported-media-type',
    title: 'a POST to the .asmx that is neither text/xml nor application/soap+xml is 415',
    binding: 'soap11',
    extension: false,
    async run(ctx) {
      const exchange = await ctx.send({
        method: 'POST',
        path: main(ctx).path,
        headers: { 'Content-Type': 'text/plain' },
        body: 'hello',
      });
      expectStatus(exchange, 415);
    },
  },
];
