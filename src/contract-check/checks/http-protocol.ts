/**
 * The HTTP GET / HTTP POST bindings beyond plain calls (docs/contract.md, "HTTP GET and HTTP POST";
 * docs/contract.md, "Recorded legacy answers"): name matching, and the text/plain errors.
 */
import { HTTP_TEXT } from '../../protocol-texts';
import { expectContentType, expectEqual, expectStatus } from '../expect';
import type { HttpExchange } from '../http-client';
import { HELLO_WORLD, MAIN_SERVICE } from '../interface';
import type { Check } from '../types';
import { check, httpBinding } from './check';
import { callOperation, emptyValues, expectJson, expectJsonSuccess, expectStringDocument } from './http-calls';

const MAIN = 'MobileAppWebService';
const SYNC = 'SyncCustomers';
const PCN_LIST = MAIN_SERVICE.operations.find((op) => op.name === 'getPCNList')!;

/**
 * 500, text/plain; charset=utf-8, the message and a line end. .NET ends it with CRLF; the captured
 * Mono server writes LF, HTML-encodes the apostrophes and appends "Parameter name: methodName" on a
 * second line to the wrong-case text: the first line, decoded, is compared.
 */
function expectPlainError(exchange: HttpExchange, message: string): void {
  expectStatus(exchange, 500);
  expectContentType(exchange, 'text/plain; charset=utf-8');
  const firstLine = exchange.body.replace(/&#39;/g, "'").split(/\r?\n/)[0];
  expectEqual(firstLine, message, 'text');
}

export const httpProtocolChecks: Check[] = [
  ...(['GET', 'POST'] as const).map((verb) =>
    check(
      'unknown-method',
      httpBinding(verb),
      `HTTP ${verb} of an unknown method is "<op> Web Service method name is not valid." (err-http${verb.toLowerCase()}-unknown-op)`,
      async (ctx) => {
        const exchange = await callOperation(ctx, ctx.service(MAIN), 'NoSuchOp', verb, []);
        expectPlainError(exchange, HTTP_TEXT.invalidMethodName('NoSuchOp'));
      },
    ),
  ),
  ...(['GET', 'POST'] as const).map((verb) =>
    check(
      'wrong-case-method',
      httpBinding(verb),
      `HTTP ${verb}: method names are case-sensitive (err-http${verb.toLowerCase()}-wrongcase-op)`,
      async (ctx) => {
        const exchange = await callOperation(ctx, ctx.service(MAIN), 'getpcnlist', verb, emptyValues(PCN_LIST));
        expectPlainError(exchange, HTTP_TEXT.wrongCaseMethodName('getpcnlist', 'getPCNList'));
      },
    ),
  ),
  check(
    'extra-path-info',
    'httpget',
    'a path continuing after the method names no method (err-httpget-extra-pathinfo)',
    async (ctx) => {
      const exchange = await ctx.send({ method: 'GET', path: `${ctx.service(MAIN).path}/getPCNList/extra` });
      expectPlainError(exchange, HTTP_TEXT.invalidMethodName('getPCNList/extra'));
    },
  ),
  check('main-operation-at-sync', 'httpget', 'a main-service operation is unknown at the sync service', async (ctx) => {
    const exchange = await callOperation(ctx, ctx.service(SYNC), 'getPCNList', 'GET', emptyValues(PCN_LIST));
    expectPlainError(exchange, HTTP_TEXT.invalidMethodName('getPCNList'));
  }),
  check(
    'wrong-body-format',
    'httppost',
    'a POST body other than a form to an operation with parameters is "Request format is invalid" (err-httppost-textplain)',
    async (ctx) => {
      const exchange = await ctx.send({
        method: 'POST',
        path: `${ctx.service(MAIN).path}/getPCNList`,
        headers: { 'Content-Type': 'text/plain' },
        body: 'Customer=C1',
      });
      expectPlainError(exchange, HTTP_TEXT.invalidRequestFormat('text/plain'));
    },
  ),
  check(
    'parameter-name-case',
    'httpget',
    'parameter names are not case-sensitive (err-httpget-wrongcase-params)',
    async (ctx) => {
      const values = emptyValues(PCN_LIST).map(([name, value]): [string, string] => [name.toLowerCase(), value]);
      const exchange = await callOperation(ctx, ctx.service(MAIN), 'getPCNList', 'GET', values);
      expectStatus(exchange, 200);
    },
  ),
  check('extra-parameter', 'httpget', 'unknown parameters are ignored (err-httpget-extra-param)', async (ctx) => {
    const exchange = await callOperation(ctx, ctx.service(SYNC), 'HelloWorld', 'GET', [['Extra', '1']]);
    expectStatus(exchange, 200);
    expectStringDocument(exchange, ctx.service(SYNC).namespace, HELLO_WORLD);
  }),
  check(
    'no-content-type',
    'httppost',
    'an operation without parameters takes a POST without Content-Type (var-httppost-HelloWorld-no-ct)',
    async (ctx) => {
      const exchange = await callOperation(ctx, ctx.service(SYNC), 'HelloWorld', 'POST', [], '');
      expectStatus(exchange, 200);
      expectStringDocument(exchange, ctx.service(SYNC).namespace, HELLO_WORLD);
    },
  ),
  // ASMX answers these with its HTML error page (verb-DELETE-op); the status is the contract, the
  // text/plain body with the same text is this project's.
  check('other-method-status', 'http', 'DELETE on an operation URL is 500 (verb-DELETE-op)', async (ctx) => {
    const exchange = await ctx.send({ method: 'DELETE', path: `${ctx.service(MAIN).path}/getPCNList` });
    expectStatus(exchange, 500);
  }),
  check(
    'other-method-text',
    'http',
    'DELETE on an operation URL says "Request format is unrecognized for URL unexpectedly ending in ..."',
    async (ctx) => {
      const exchange = await ctx.send({ method: 'DELETE', path: `${ctx.service(MAIN).path}/getPCNList` });
      expectPlainError(exchange, HTTP_TEXT.unrecognizedUrl('/getPCNList'));
    },
    true,
  ),
  check(
    'missing-parameters',
    'httpget',
    'missing parameters are accepted (ASMX: "Missing parameter: X.")',
    async (ctx) => {
      expectJsonSuccess(await callOperation(ctx, ctx.service(MAIN), 'getPCNList', 'GET', []));
    },
    true,
  ),
  check(
    'json-body',
    'httppost',
    'a JSON object body reaches an operation without contract parameters',
    async (ctx) => {
      const exchange = await callOperation(
        ctx,
        ctx.service(MAIN),
        'FillProfitCenterForCustomer',
        'POST',
        [],
        'application/json',
      );
      expectJsonSuccess(exchange);
    },
    true,
  ),
  check(
    'business-failure',
    'httpget',
    'invalid input is a 200 JSON failure naming the parameter (docs/behaviour.md, "Result format")',
    async (ctx) => {
      const body = expectJson(
        await callOperation(ctx, ctx.service(MAIN), 'getSalesSummaryRecords', 'GET', [['FromDate', '31/02/2026']]),
      );
      expectEqual(body.Success, false, 'Success');
      expectEqual(body.Code, 'INVALID_PARAMETER', 'Code');
      expectEqual(body.Field, 'FromDate', 'Field');
      expectEqual(body.Data, null, 'Data');
    },
    true,
  ),
];
