/** How the check modules name their checks: the id is prefixed with the binding it exercises. */
import type { SoapVersion } from '../soap-messages';
import type { Binding, Check, CheckContext } from '../types';

export function check(
  id: string,
  binding: Binding,
  title: string,
  run: (ctx: CheckContext) => Promise<void>,
  extension = false,
): Check {
  return { id: `${binding}.${id}`, title, binding, extension, run };
}

export const soapBinding = (version: SoapVersion): Binding => (version === '1.1' ? 'soap11' : 'soap12');

export const httpBinding = (verb: 'GET' | 'POST'): Binding => (verb === 'GET' ? 'httpget' : 'httppost');
