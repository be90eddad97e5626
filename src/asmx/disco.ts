/** The discovery document (?disco), shaped like the captured ASMX one (docs/contract.md, recorded: main-disco). */
import type { Service } from '../services/types';
import { escapeXml } from './xml-escape';

export function discoveryDocument(url: string, service: Pick<Service, 'name' | 'namespace'>): string {
  const address = escapeXml(url);
  const ns = escapeXml(service.namespace);
  const soap = (n: number, binding: string) =>
    `  <soap address="${address}" xmlns:q${n}="${ns}" binding="q${n}:${binding}" xmlns="http://schemas.xmlsoap.org/disco/soap/" />`;
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<discovery xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.xmlsoap.org/disco/">',
    `  <contractRef ref="${address}?wsdl" docRef="${address}" xmlns="http://schemas.xmlsoap.org/disco/scl/" />`,
    soap(1, `${service.name}Soap`),
    soap(2, `${service.name}Soap12`),
    '</discovery>',
  ].join('\r\n');
}
