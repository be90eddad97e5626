/**
 * Every operation of both services over SOAP 1.1 and SOAP 1.2 (docs/contract.md, "SOAP": "Success"):
 * an operation element with no parameters (every parameter is optional, docs/behaviour.md) is answered 200
 * with the exact ASMX document: the empty <opResponse xmlns="ns" />, or HelloWorld's result.
 */
import { expectBody, expectContentType, expectStatus } from '../expect';
import { CONTRACT_SERVICES, HELLO_WORLD, type ContractOperation, type ContractService } from '../interface';
import { postSoap } from '../soap-client';
import {
  operationElement,
  requestEnvelope,
  SOAP_CONTENT_TYPE,
  successDocument,
  type SoapVersion,
} from '../soap-messages';
import type { Check } from '../types';
import { soapBinding } from './check';

const VERSIONS: readonly SoapVersion[] = ['1.1', '1.2'];

export const soapCallChecks: Check[] = CONTRACT_SERVICES.flatMap((service) =>
  VERSIONS.flatMap((version) => service.operations.map((operation) => callCheck(service, operation, version))),
);

function callCheck(contract: ContractService, operation: ContractOperation, version: SoapVersion): Check {
  const binding = soapBinding(version);
  return {
    id: `${binding}.${contract.name}.${operation.name}`,
    title: `SOAP ${version} ${contract.name}.${operation.name} answers the ASMX success document`,
    binding,
    extension: false,
    async run(ctx) {
      const service = ctx.service(contract.name);
      const action = service.namespace + operation.name;
      const body = requestEnvelope(version, operationElement(operation.name, service.namespace));
      const exchange = await postSoap(ctx, service, version, body, { action });
      expectStatus(exchange, 200);
      expectContentType(exchange, SOAP_CONTENT_TYPE[version]);
      const result = operation.returnsString ? HELLO_WORLD : undefined;
      expectBody(exchange, successDocument(version, operation.name, service.namespace, result));
    },
  };
}
