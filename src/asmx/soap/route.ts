/**
 * Picks the operation a SOAP request names (docs/contract.md, "SOAP"):
 * - SOAP 1.1 with a SOAPAction header: the value (one pair of quotes removed) must equal ns + op
 *   exactly, case included;
 * - SOAP 1.2 with an action parameter: the same rule for the parameter;
 * - otherwise (text/xml without SOAPAction, or SOAP 1.2 without action): the first Body element,
 *   by local name and namespace.
 * When an action names the operation, the Body element must be that operation's element (or the Body
 * empty): the method would otherwise be chosen by one and its arguments read from the other.
 */
import { FAULT_TEXT } from '../../protocol-texts';
import type { SoapRequest } from './guard';
import { SoapFaultError } from './rejections';

export interface OperationTable {
  namespace: string;
  has(operation: string): boolean;
}

export function resolveOperation(table: OperationTable, request: SoapRequest): string {
  return request.action === undefined ? byBodyElement(table, request) : byAction(table, request, request.action);
}

function byAction(table: OperationTable, request: SoapRequest, action: string): string {
  const operation = operationOfAction(table, action);
  if (operation === undefined) {
    const message = request.version === '1.1' ? FAULT_TEXT.unknownSoapAction(action) : FAULT_TEXT.unknownAction(action);
    throw new SoapFaultError(request.version, 'client', message);
  }
  const element = request.operation;
  if (element && (element.local !== operation || element.ns !== table.namespace)) {
    throw new SoapFaultError(request.version, 'client', FAULT_TEXT.actionBodyMismatch(action, element.local, element.ns));
  }
  return operation;
}

function operationOfAction(table: OperationTable, action: string): string | undefined {
  if (!action.startsWith(table.namespace)) return undefined;
  const operation = action.slice(table.namespace.length);
  return table.has(operation) ? operation : undefined;
}

/**
 * Without an action, an unknown element is named in the fault under SOAP 1.2 (.NET's text), and a
 * text/xml request gets the "without a valid action parameter" fault (docs/contract.md, recorded:
 * err-soap11-unknown-op-no-soapaction); so does an empty Body under either version.
 */
function byBodyElement(table: OperationTable, request: SoapRequest): string {
  const element = request.operation;
  if (element && element.ns === table.namespace && table.has(element.local)) return element.local;
  if (element && request.version === '1.2') {
    throw new SoapFaultError('1.2', 'client', FAULT_TEXT.unknownRequestElement(element.local, element.ns));
  }
  throw new SoapFaultError(request.version, 'client', FAULT_TEXT.noValidAction());
}
