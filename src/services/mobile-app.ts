/**
 * The MobileAppWebService service object: the 19 operations of the registry behind one invoke(),
 * shared by SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST (architecture.md).
 */
import { mainServiceOperations } from '../operations/registry';
import type { Operation, OperationContext, OperationResult } from '../operations/types';
import { StreamedData } from '../operations/streamed';
import { buildRequest, carriesNoInput } from './request-fields';
import type { InvokeInput, Outcome, Service, ServiceOperation } from './types';

export const MOBILE_APP_SERVICE_NAME = 'MobileAppWebService';

/** Success answer of a write operation called without any input (domain.md, "Result format"). */
export const NO_INPUT_MESSAGE = 'No input was given: nothing was changed.';

export interface MobileAppServiceOptions {
  namespace: string;
  context: OperationContext;
  /** The registry by default; tests pass a modified table to prove the start-up check. */
  operations?: readonly Operation[];
}

export function createMobileAppService(options: MobileAppServiceOptions): Service {
  const implementations = new Map((options.operations ?? mainServiceOperations).map((op) => [op.name, op]));
  const operations = new Map<string, ServiceOperation>(
    [...implementations.values()].map((op) => [op.name, describe(op)]),
  );
  return {
    name: MOBILE_APP_SERVICE_NAME,
    namespace: options.namespace,
    path: `/API/${MOBILE_APP_SERVICE_NAME}.asmx`,
    wsdlFile: `wsdl/${MOBILE_APP_SERVICE_NAME}.wsdl`,
    operations,
    async invoke(name: string, input: InvokeInput): Promise<Outcome> {
      const operation = implementations.get(name);
      if (!operation) throw new Error(`${name} is not an operation of ${MOBILE_APP_SERVICE_NAME}`);
      return { kind: 'report', result: await run(operation, input, options.context) };
    },
  };
}

function describe(op: Operation): ServiceOperation {
  return { name: op.name, params: op.params, fields: op.fields, acceptsFiles: op.acceptsFiles, result: 'report' };
}

async function run(operation: Operation, input: InvokeInput, context: OperationContext): Promise<OperationResult> {
  const request = buildRequest(operation, input.values, input.files);
  if (operation.kind === 'write' && carriesNoInput(request)) return { data: null, message: NO_INPUT_MESSAGE };
  const result = await operation.run(request, { ...context, streams: true, ...(input.principal ? { principal: input.principal } : {}) });
  return input.streams ? result : unread(result);
}

/** For a binding that answers no data: a streamed list is closed unread (its snapshot ends at once). */
async function unread(result: OperationResult): Promise<OperationResult> {
  if (!(result.data instanceof StreamedData)) return result;
  await result.data.close();
  return { ...result, data: null };
}
