/**
 * Every operation of both services over HTTP GET and HTTP POST (docs/contract.md, "HTTP GET ... and HTTP
 * POST"). The legacy checks send every contract parameter (empty), as ASMX requires; they expect 200,
 * and HelloWorld's <string> document. The JSON result bodies of the main service are this project's
 * (ASMX answers a void method with an empty 200), so they are extension checks.
 */
import { expectContentType, expectEqual, expectStatus, expectThat, fail, show } from '../expect';
import type { HttpExchange } from '../http-client';
import { CONTRACT_SERVICES, HELLO_WORLD, type ContractOperation, type ContractService } from '../interface';
import { escapeAttribute } from '../soap-messages';
import type { Check, CheckContext, ServiceTarget } from '../types';
import { httpBinding } from './check';

type Verb = 'GET' | 'POST';

export const httpCallChecks: Check[] = CONTRACT_SERVICES.flatMap((service) =>
  (['GET', 'POST'] as const).flatMap((verb) =>
    service.operations.flatMap((operation) => [
      callCheck(service, operation, verb),
      ...(operation.returnsString ? [] : [jsonCheck(service, operation, verb)]),
    ]),
  ),
);

function callCheck(contract: ContractService, operation: ContractOperation, verb: Verb): Check {
  return {
    id: `${httpBinding(verb)}.${contract.name}.${operation.name}`,
    title: `HTTP ${verb} ${contract.name}/${operation.name} with every parameter answers 200`,
    binding: httpBinding(verb),
    extension: false,
    async run(ctx) {
      const service = ctx.service(contract.name);
      const exchange = await callOperation(ctx, service, operation.name, verb, emptyValues(operation));
      expectStatus(exchange, 200);
      if (operation.returnsString) expectStringDocument(exchange, service.namespace, HELLO_WORLD);
    },
  };
}

function jsonCheck(contract: ContractService, operation: ContractOperation, verb: Verb): Check {
  return {
    id: `${httpBinding(verb)}.${contract.name}.${operation.name}.json`,
    title: `HTTP ${verb} ${contract.name}/${operation.name} answers the JSON result of docs/behaviour.md`,
    binding: httpBinding(verb),
    extension: true,
    async run(ctx) {
      const exchange = await callOperation(
        ctx,
        ctx.service(contract.name),
        operation.name,
        verb,
        emptyValues(operation),
      );
      expectJsonSuccess(exchange);
    },
  };
}

export function emptyValues(operation: ContractOperation): [string, string][] {
  return operation.params.map((name) => [name, '']);
}

export function callOperation(
  ctx: CheckContext,
  service: ServiceTarget,
  name: string,
  verb: Verb,
  values: [string, string][],
  contentType?: string,
): Promise<HttpExchange> {
  const encoded = new URLSearchParams(values).toString();
  if (verb === 'GET')
    return ctx.send({ method: 'GET', path: `${service.path}/${name}${encoded ? `?${encoded}` : ''}` });
  const headers: Record<string, string> =
    contentType === '' ? {} : { 'Content-Type': contentType ?? 'application/x-www-form-urlencoded' };
  const body = contentType === 'application/json' ? JSON.stringify(Object.fromEntries(values)) : encoded;
  return ctx.send({ method: 'POST', path: `${service.path}/${name}`, headers, body });
}

/**
 * <?xml ...?> CRLF <string xmlns="ns">text</string>, text/xml; charset=utf-8. .NET writes CRLF, the
 * captured Mono server LF (docs/contract.md, "Recorded legacy answers"): either line end passes.
 */
export function expectStringDocument(exchange: HttpExchange, ns: string, text: string): void {
  expectContentType(exchange, 'text/xml; charset=utf-8');
  const expected = `<?xml version="1.0" encoding="utf-8"?>\n<string xmlns="${escapeAttribute(ns)}">${text}</string>`;
  expectEqual(exchange.body.replace(/\r\n/g, '\n'), expected, 'body');
}

/** 200, application/json; charset=utf-8, {"Success": true, "Message", "Data", ...} (docs/behaviour.md). */
export function expectJsonSuccess(exchange: HttpExchange): void {
  const body = expectJson(exchange);
  expectEqual(body.Success, true, 'Success');
  expectThat(typeof body.Message === 'string', `Message: expected a string, got ${show(body.Message)}`);
  expectThat('Data' in body, 'Data: missing');
  if (Array.isArray(body.Data)) expectEqual(body.Count, body.Data.length, 'Count');
}

export function expectJson(exchange: HttpExchange): Record<string, unknown> {
  expectStatus(exchange, 200);
  expectContentType(exchange, 'application/json; charset=utf-8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(exchange.body);
  } catch {
    fail(`body: expected JSON, got ${show(exchange.body)}`);
  }
  expectThat(
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed),
    `body: expected a JSON object, got ${show(exchange.body)}`,
  );
  return parsed as Record<string, unknown>;
}
