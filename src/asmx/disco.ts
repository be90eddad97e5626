/** The discovery document (?disco), byte for byte the captured ASMX one (docs/contract.md, recorded: main-disco). */
import { create } from 'xmlbuilder2';
import type { Service } from '../services/types';

const DISCO_NS = 'http://schemas.xmlsoap.org/disco/';

export function discoveryDocument(url: string, service: Pick<Service, 'name' | 'namespace'>): string {
  const discovery = create({ version: '1.0', encoding: 'utf-8' }).ele('discovery', {
    'xmlns:xsd': 'http://www.w3.org/2001/XMLSchema',
    'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
    xmlns: DISCO_NS,
  });
  discovery.ele('contractRef', { ref: `${url}?wsdl`, docRef: url, xmlns: `${DISCO_NS}scl/` });
  for (const [n, binding] of [[1, 'Soap'], [2, 'Soap12']] as const) {
    discovery.ele('soap', { address: url, [`xmlns:q${n}`]: service.namespace, binding: `q${n}:${service.name}${binding}`, xmlns: `${DISCO_NS}soap/` });
  }
  return discovery.end({ prettyPrint: true, indent: '  ', newline: '\r\n', spaceBeforeSlash: true });
}
