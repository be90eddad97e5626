/**
 * This service understands no header: a block addressed to it with mustUnderstand="1" or "true" is a
 * MustUnderstand fault; blocks for another actor/role are left alone (docs/contract.md, "SOAP").
 */
import { FAULT_TEXT } from '../../protocol-texts';
import { ENVELOPE_NS, type SoapVersion } from '../faults';
import type { HeaderBlock } from './envelope-reader';
import { SoapFaultError } from './rejections';

const ROLE_ATTRIBUTE: Record<SoapVersion, string> = { '1.1': 'actor', '1.2': 'role' };

const ROLES_OF_THIS_NODE: Record<SoapVersion, readonly string[]> = {
  '1.1': ['http://schemas.xmlsoap.org/soap/actor/next'],
  '1.2': ['http://www.w3.org/2003/05/soap-envelope/role/next', 'http://www.w3.org/2003/05/soap-envelope/role/ultimateReceiver'],
};

export function checkMustUnderstand(version: SoapVersion, blocks: readonly HeaderBlock[]): void {
  const notUnderstood = blocks.find((block) => mustUnderstand(version, block) && addressedHere(version, block));
  if (notUnderstood) throw new SoapFaultError(version, 'mustUnderstand', FAULT_TEXT.headerNotUnderstood(notUnderstood.name));
}

function envelopeAttribute(version: SoapVersion, block: HeaderBlock, local: string): string | undefined {
  return block.attributes.find((a) => a.local === local && a.ns === ENVELOPE_NS[version])?.value.trim();
}

function mustUnderstand(version: SoapVersion, block: HeaderBlock): boolean {
  const value = envelopeAttribute(version, block, 'mustUnderstand');
  return value === '1' || value === 'true';
}

function addressedHere(version: SoapVersion, block: HeaderBlock): boolean {
  const role = envelopeAttribute(version, block, ROLE_ATTRIBUTE[version]);
  return role === undefined || role === '' || ROLES_OF_THIS_NODE[version].includes(role);
}
