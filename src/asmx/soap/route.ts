/**
 * Picks the operation a SOAP request names (docs/contract.md, "SOAP"): its action must equal ns + op
 * exactly; without one, the first Body element. With an action the Body element must match it, or the
 * method would be chosen by one and its arguments read from the other.
 */
import { FAULT_TEXT } from '../../protocol-texts';
import type { Service } from '../../services/types';
import type { SoapRequest } from './guard';
import { SoapFaultError } from './rejections';

type OperationTable = Pick<Service, 'namespace' | 'operations'>;

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
  return table.operations.has(operation) ? operation : undefined;
}

/** SOAP 1.2 names an unknown element (.NET's text); otherwise "without a valid action" (recorded: err-soap11-unknown-op-no-soapaction). */
function byBodyElement(table: OperationTable, request: SoapRequest): string {
  const element = request.operation;
  if (element && element.ns === table.namespace && table.operations.has(element.local)) return element.local;
  if (element && request.version === '1.2') {
    throw new SoapFaultError('1.2', 'client', FAULT_TEXT.unknownRequestElement(element.local, element.ns));
  }
  throw new SoapFaultError(request.version, 'client', FAULT_TEXT.noValidAction());
}
