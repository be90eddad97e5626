/** Everything under a service's .asmx but SOAP: GET on it serves the documents, a path after it the HTTP bindings. */
import type { Request, Response } from 'express';
import { create } from 'xmlbuilder2';
import { annotate, annotateUnexpected, requestKindOf } from '../request-context/annotation';
import type { BindingRequest, BindingResponse } from '../request-context/exchange';
import type { Settings } from '../config';
import type { Delivery } from './delivery';
import type { Service } from '../services/types';
import { fromLocalMachine } from '../request-context/client-address';
import { ADDRESS_PLACEHOLDER, type ServiceDescription } from './contract';
import {
  HELP_PAGE_POLICY,
  helpPage,
  operationHelpPage,
  operationNotFoundPage,
  type OperationPageOptions,
} from './help-page';
import { handleHttpBinding, type HttpKind } from './http';
import { publicAddress, serviceUrl } from './request-url';
import { escapeXml } from './xml-escape';

/** The HTTP GET and POST bindings: a request to a path under the .asmx, on Node's own objects. */
export function httpBindings(
  service: Service,
  settings: Settings,
  delivery: Delivery,
): (req: BindingRequest, res: BindingResponse, kind: HttpKind) => void {
  return (req, res, kind) => {
    handleHttpBinding(service, settings, delivery, req, res, kind).catch((error: unknown) => {
      // Its failures are answered inside; one that escapes (the answer itself failing) cuts the connection.
      annotateUnexpected(res, error);
      res.destroy();
    });
  };
}

/**
 * GET <path> (docs/contract.md, "WSDL"): ?wsdl, ?disco, ?op=<name> and the help page, as the front
 * door classified it, with addresses from each request; `private`, as the legacy ones, since the
 * addresses depend on the request.
 */
export function serviceDocuments(
  service: Service,
  description: ServiceDescription,
  settings: Settings,
): (req: Request, res: Response) => void {
  return (req, res) => {
    const kind = requestKindOf(res);
    annotate(res, { outcome: 'success' });
    const url = serviceUrl(req, settings, service.path);
    switch (kind?.kind === 'document' ? kind.operation : 'help') {
      case 'wsdl':
        return sendXml(res, description.wsdlTemplate.split(ADDRESS_PLACEHOLDER).join(escapeXml(url)));
      case 'disco':
        return sendXml(res, discoveryDocument(url, service));
      case 'op':
        return sendOperationPage(req, res, service, operationAsked(req.originalUrl), settings);
      case 'help':
        return sendHtml(res, 200, helpPage(service));
    }
  };
}

/** The value of the first op key, in any case. */
function operationAsked(originalUrl: string): string {
  const query = new URLSearchParams(originalUrl.includes('?') ? originalUrl.slice(originalUrl.indexOf('?') + 1) : '');
  for (const [key, value] of query) {
    if (key.toLowerCase() === 'op') return value;
  }
  return '';
}

function sendOperationPage(req: Request, res: Response, service: Service, name: string, settings: Settings): void {
  const operation = service.operations.get(name);
  if (!operation) {
    // .NET's help page raises an HttpException for an unknown name: an error page with status 500.
    annotate(res, { outcome: 'not_found' });
    sendHtml(res, 500, operationNotFoundPage(service, name));
    return;
  }
  const { host, prefix } = publicAddress(req, settings);
  const options = { testForm: testFormOf(req, settings), dateOrder: settings.dateOrder };
  sendHtml(
    res,
    200,
    operationHelpPage(service, operation, { host, servicePath: prefix + settings.basePath + service.path }, options),
  );
}

/** HELP_TEST_FORMS: the form for everyone, no one, or (local) the legacy rule: the machine itself sees it, others a sentence. */
function testFormOf(req: Request, settings: Settings): OperationPageOptions['testForm'] {
  if (settings.helpTestForms === 'off') return 'none';
  if (settings.helpTestForms === 'all') return 'form';
  return fromLocalMachine(req, settings.trustProxy) ? 'form' : 'local-only';
}

/** The legacy server's Cache-Control: `private, max-age=0` on a 200, `private` on its error pages. */
const CACHE_CONTROL = (status: number) => (status === 200 ? 'private, max-age=0' : 'private');

function sendXml(res: Response, xml: string): void {
  res
    .status(200)
    .set({ 'Content-Type': 'text/xml; charset=utf-8', 'Cache-Control': CACHE_CONTROL(200) })
    .send(xml);
}

function sendHtml(res: Response, status: number, html: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': CACHE_CONTROL(status),
      'Content-Security-Policy': HELP_PAGE_POLICY,
    })
    .send(html);
}

const DISCO_NS = 'http://schemas.xmlsoap.org/disco/';

/** The discovery document (?disco), byte for byte the captured ASMX one (docs/contract.md, recorded: main-disco). */
function discoveryDocument(url: string, service: Pick<Service, 'name' | 'namespace'>): string {
  const discovery = create({ version: '1.0', encoding: 'utf-8' }).ele('discovery', {
    'xmlns:xsd': 'http://www.w3.org/2001/XMLSchema',
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    xmlns: DISCO_NS,
  });
  discovery.ele('contractRef', { ref: `${url}?wsdl`, docRef: url, xmlns: `${DISCO_NS}scl/` });
  for (const [n, binding] of [
    [1, 'Soap'],
    [2, 'Soap12'],
  ] as const) {
    discovery.ele('soap', {
      address: url,
      [`xmlns:q${n}`]: service.namespace,
      binding: `q${n}:${service.name}${binding}`,
      xmlns: `${DISCO_NS}soap/`,
    });
  }
  return discovery.end({ prettyPrint: true, indent: '  ', newline: '\r\n', spaceBeforeSlash: true });
}
