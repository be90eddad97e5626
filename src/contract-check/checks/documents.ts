/**
 * The documents of each service (docs/contract.md, "WSDL"): ?wsdl (structure, parameters, soapActions,
 * addresses), ?disco, the help page and its ?op= pages, and the methods the .asmx refuses.
 */
import {
  expectContentType,
  expectEqual,
  expectIncludes,
  expectMediaType,
  expectStatus,
  expectThat,
  fail,
} from '../expect';
import { CONTRACT_SERVICES, type ContractService } from '../interface';
import type { HttpExchange } from '../http-client';
import type { Check, CheckContext } from '../types';
import { children, parseXmlDocument, resolveQName } from '../xml';
import {
  bindingProblems,
  messageProblems,
  portTypeProblems,
  rootProblems,
  servicePorts,
  serviceProblems,
  typesProblems,
} from '../wsdl-structure';

const DISCO_NS = 'http://schemas.xmlsoap.org/disco/';

function wsdlCheck(
  contract: ContractService,
  part: string,
  title: string,
  problems: (root: ReturnType<typeof parseXmlDocument>, ns: string) => string[],
): Check {
  return {
    id: `wsdl.${contract.name}.${part}`,
    title: `${contract.name}?wsdl: ${title}`,
    binding: 'wsdl',
    extension: false,
    async run(ctx) {
      const service = ctx.service(contract.name);
      const found = problems(await ctx.wsdl(contract.name), service.namespace);
      if (found.length > 0)
        fail(found.slice(0, 5).join('; ') + (found.length > 5 ? `; and ${found.length - 5} more` : ''));
    },
  };
}

function serviceChecks(contract: ContractService): Check[] {
  return [
    {
      id: `wsdl.${contract.name}.document`,
      title: `${contract.name}?wsdl is a text/xml WSDL 1.1 document, for any case of the query key`,
      binding: 'wsdl',
      extension: false,
      async run(ctx) {
        const service = ctx.service(contract.name);
        const lower = await getXmlDocument(ctx, `${service.path}?wsdl`);
        const problems = rootProblems(parseXmlDocument(lower.body), service.namespace);
        if (problems.length > 0) fail(problems.join('; '));
        for (const key of ['WSDL', 'Wsdl']) {
          const other = await ctx.send({ method: 'GET', path: `${service.path}?${key}` });
          expectStatus(other, 200);
          expectThat(other.body === lower.body, `?${key} answers a different document than ?wsdl`);
        }
      },
    },
    wsdlCheck(
      contract,
      'types',
      'one qualified s:schema with every operation element and its optional string parameters',
      (root, ns) => typesProblems(root, contract, ns),
    ),
    wsdlCheck(
      contract,
      'messages',
      'the SoapIn/Out, HttpGetIn/Out and HttpPostIn/Out messages of every operation',
      (root, ns) => messageProblems(root, contract, ns),
    ),
    wsdlCheck(contract, 'port-types', 'the Soap, HttpGet and HttpPost port types', (root, ns) =>
      portTypeProblems(root, contract, ns),
    ),
    wsdlCheck(
      contract,
      'bindings',
      'the four bindings with soapAction = namespace + operation, document/literal, /op locations',
      (root, ns) => bindingProblems(root, contract, ns),
    ),
    wsdlCheck(contract, 'service', 'the service with its four ports', (root, ns) =>
      serviceProblems(root, contract, ns),
    ),
    {
      id: `wsdl.${contract.name}.addresses`,
      title: `${contract.name}?wsdl: every address points back at the host and path the client used`,
      binding: 'wsdl',
      extension: false,
      async run(ctx) {
        const service = ctx.service(contract.name);
        const expected = new URL(service.url);
        for (const port of servicePorts(await ctx.wsdl(contract.name), contract.name) ?? []) {
          const location = parseUrl(port.location, port.name);
          // The legacy server takes the host name from the request but the port from its own socket
          // (docs/contract.md, "Recorded legacy answers"): the port is compared by the extension check.
          expectEqual(location.hostname, expected.hostname, `${port.name} address host`);
          expectEqual(location.pathname, expected.pathname, `${port.name} address path`);
        }
      },
    },
    {
      id: `wsdl.${contract.name}.addresses-host-header`,
      title: `${contract.name}?wsdl: addresses carry the whole Host header, port included`,
      binding: 'wsdl',
      extension: true,
      async run(ctx) {
        const service = ctx.service(contract.name);
        const host = 'contract-check.example:8443';
        const exchange = await ctx.send({ method: 'GET', path: `${service.path}?wsdl`, headers: { Host: host } });
        expectStatus(exchange, 200);
        const expected = `${new URL(service.url).protocol}//${host}${service.path}`;
        for (const port of servicePorts(parseXmlDocument(exchange.body), contract.name) ?? [])
          expectEqual(port.location, expected, `${port.name} address`);
      },
    },
    discoCheck(contract),
    helpCheck(contract),
    helpOperationCheck(contract),
    {
      id: `help.${contract.name}.unknown-operation`,
      title: `${contract.name}?op=NoSuchOp is an error page "Method 'NoSuchOp' was not found in service ${contract.name}."`,
      binding: 'help',
      extension: false,
      async run(ctx) {
        const exchange = await ctx.send({ method: 'GET', path: `${ctx.service(contract.name).path}?op=NoSuchOp` });
        expectStatus(exchange, 500);
        expectIncludes(
          exchange.body.replace(/&#39;|&#x27;|&apos;/g, "'"),
          `Method 'NoSuchOp' was not found in service ${contract.name}.`,
          'page',
        );
      },
    },
    {
      id: `http.${contract.name}.methods-on-asmx`,
      title: `HEAD, PUT, DELETE and OPTIONS on ${contract.name}.asmx are 405 (verb-PUT-asmx)`,
      binding: 'http',
      extension: false,
      async run(ctx) {
        for (const method of ['HEAD', 'PUT', 'DELETE', 'OPTIONS']) {
          const exchange = await ctx.send({ method, path: ctx.service(contract.name).path });
          if (exchange.status !== 405) fail(`${method}: status ${exchange.status}, expected 405`);
        }
      },
    },
  ];
}

function discoCheck(contract: ContractService): Check {
  return {
    id: `disco.${contract.name}`,
    title: `${contract.name}?disco names the WSDL and both SOAP bindings (main-disco)`,
    binding: 'disco',
    extension: false,
    async run(ctx) {
      const service = ctx.service(contract.name);
      const root = parseXmlDocument((await getXmlDocument(ctx, `${service.path}?disco`)).body);
      expectThat(root.uri === DISCO_NS && root.local === 'discovery', 'root is not disco:discovery');
      const contractRef = children(root, `${DISCO_NS}scl/`, 'contractRef')[0];
      expectThat(contractRef !== undefined, 'no scl:contractRef');
      expectSameAddress(contractRef.attributes.ref, `${service.url}?wsdl`, 'contractRef ref');
      expectSameAddress(contractRef.attributes.docRef, service.url, 'contractRef docRef');
      const soap = children(root, `${DISCO_NS}soap/`, 'soap');
      const bindings = soap.map((s) => resolveQName(s, s.attributes.binding));
      for (const suffix of ['Soap', 'Soap12']) {
        const found = bindings.some((b) => b?.uri === service.namespace && b.local === `${contract.name}${suffix}`);
        expectThat(found, `no soap element with binding ${contract.name}${suffix} in ${service.namespace}`);
      }
      for (const s of soap) expectSameAddress(s.attributes.address, service.url, 'soap address');
    },
  };
}

function helpCheck(contract: ContractService): Check {
  return {
    id: `help.${contract.name}`,
    title: `${contract.name}.asmx without a query is an HTML help page naming every operation`,
    binding: 'help',
    extension: false,
    async run(ctx) {
      const exchange = await ctx.send({ method: 'GET', path: ctx.service(contract.name).path });
      expectStatus(exchange, 200);
      expectMediaType(exchange, 'text/html');
      for (const operation of contract.operations) expectIncludes(exchange.body, operation.name, 'help page');
    },
  };
}

/** .NET's page works with ?op= alone; the captured Mono page needs &bnd= as well (main-help-op-getPCNList). */
function helpOperationCheck(contract: ContractService): Check {
  return {
    id: `help.${contract.name}.operation`,
    title: `${contract.name}.asmx?op=<operation> is the operation's HTML page`,
    binding: 'help',
    extension: false,
    async run(ctx) {
      for (const operation of contract.operations) {
        const exchange = await ctx.send({
          method: 'GET',
          path: `${ctx.service(contract.name).path}?op=${operation.name}`,
        });
        expectStatus(exchange, 200);
        expectMediaType(exchange, 'text/html');
        expectIncludes(exchange.body, operation.name, `?op=${operation.name} page`);
      }
    },
  };
}

/** A GET of a service document (?wsdl, ?disco): it must answer 200 with text/xml in UTF-8. */
async function getXmlDocument(ctx: CheckContext, path: string): Promise<HttpExchange> {
  const exchange = await ctx.send({ method: 'GET', path });
  expectStatus(exchange, 200);
  expectContentType(exchange, 'text/xml; charset=utf-8');
  return exchange;
}

function parseUrl(value: string | undefined, what: string): URL {
  try {
    return new URL(value ?? '');
  } catch {
    fail(`${what}: address ${JSON.stringify(value)} is not a URL`);
  }
}

/** Host name and path as for the WSDL addresses (the port is the extension's business). */
function expectSameAddress(actual: string | undefined, expected: string, what: string): void {
  const a = parseUrl(actual, what);
  const e = new URL(expected);
  expectEqual(`${a.hostname}${a.pathname}${a.search}`, `${e.hostname}${e.pathname}${e.search}`, what);
}

export const documentChecks: Check[] = CONTRACT_SERVICES.flatMap(serviceChecks);
