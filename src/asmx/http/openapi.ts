/**
 * The OpenAPI 3.1 document of the JSON bindings, from the operations' declarations and the catalogue of
 * their inputs (src/services/parameters.ts), and its Swagger UI page. It names no host, so it holds behind any proxy.
 */
import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import type { DateOrder, Settings } from '../../config';
import { ERROR_CODES } from '../../errors';
import { dateForms } from '../../operations/parse';
import { isScalar, type FieldType, type RecordType, type ResultType, type ScalarKind } from '../../operations/results';
import { PARAMETERS, type ParameterDescription } from '../../services/parameters';
import type { Service, ServiceOperation } from '../../services/types';
import { pagePolicy } from '../page-policy';
import { publicAddress } from '../request-url';
import { escapeXml as esc } from '../xml-escape';

type Schema = Record<string, unknown>;

const SCALAR_SCHEMAS: Readonly<Record<ScalarKind, Schema>> = {
  string: { type: 'string' },
  integer: { type: 'integer' },
  money: { type: 'number', description: 'Currency units, at most two decimals' },
  decimal: { type: 'number' },
  date: { type: 'string', format: 'date' },
  dateTime: { type: 'string', format: 'date-time' },
  boolean: { type: 'boolean' },
};

const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** The schemas of the record types, collected by name while the operations are described. */
class RecordSchemas {
  readonly byName: Record<string, Schema> = {};

  /** A reference to the record's schema, added on first use. */
  of(type: RecordType): Schema {
    if (!(type.name in this.byName)) {
      this.byName[type.name] = {}; // taken before the fields, so a record that holds itself ends
      const properties = Object.fromEntries(
        Object.entries(type.fields).map(([name, field]) => [name, this.field(field)]),
      );
      this.byName[type.name] = {
        type: 'object',
        properties,
        required: Object.keys(type.fields),
        additionalProperties: false,
      };
    }
    return ref(type.name);
  }

  private field(field: FieldType): Schema {
    if (isScalar(field)) {
      const schema = SCALAR_SCHEMAS[field.kind];
      return field.nullable ? { ...schema, type: [schema.type, 'null'] } : schema;
    }
    return 'list' in field ? { type: 'array', items: this.of(field.list) } : this.of(field.record);
  }
}

/** The success envelope; a write called without input answers Data null, without Count. */
function successSchema(returns: ResultType, write: boolean, records: RecordSchemas): Schema {
  const properties: Record<string, Schema> = { Success: { const: true }, Message: { type: 'string' } };
  const required = ['Success', 'Message'];
  if (returns.kind === 'text') throw new Error('a text result has no JSON envelope');
  if (returns.kind === 'rows') {
    properties.Count = { type: 'integer', minimum: 0, description: 'The number of rows in Data' };
    if (!write) required.push('Count');
  }
  const data = returns.kind === 'rows' ? { type: 'array', items: records.of(returns.row) } : records.of(returns.type);
  properties.Data =
    write || (returns.kind === 'record' && returns.nullable) ? { oneOf: [data, { type: 'null' }] } : data;
  required.push('Data');
  if (returns.kind === 'rows' && returns.totals) {
    properties.Totals = records.of(returns.totals);
    required.push('Totals');
  }
  if (returns.pageable) {
    properties.NextPageToken = {
      type: ['string', 'null'],
      description: 'Only when a page was asked for: the PageToken of the next page, null on the last one',
    };
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

const FAILURE_SCHEMA: Schema = {
  type: 'object',
  description: 'A business failure (HTTP status 200)',
  properties: {
    Success: { const: false },
    Code: { $ref: '#/components/schemas/ErrorCode' },
    Message: { type: 'string' },
    Field: { type: ['string', 'null'], description: 'The parameter the failure is about, when there is one' },
    Data: { type: 'null' },
  },
  required: ['Success', 'Code', 'Message', 'Field', 'Data'],
  additionalProperties: false,
};

const ERROR_CODE_SCHEMA: Schema = {
  type: 'string',
  enum: Object.keys(ERROR_CODES),
  description: Object.entries(ERROR_CODES)
    .map(([code, meaning]) => `${code}: ${meaning}`)
    .join('\n'),
};

/** A named input's schema: every value travels as text, described by what the operation accepts. */
function parameterSchema(op: ServiceOperation, name: string, parameter: ParameterDescription): Schema {
  switch (parameter.kind) {
    case 'integer':
      return { type: 'integer', minimum: parameter.minimum, maximum: parameter.maximum };
    case 'word':
      return { type: 'string', enum: parameter.words };
    case 'sortField':
      if (op.sorting === undefined)
        throw new Error(`${op.name}: ${name} sorts rows, and the operation declares no sorting`);
      return { type: 'string', enum: [...op.sorting.fields], default: op.sorting.fallback };
    case 'date':
      return { type: 'string', examples: ['2026-01-31'] };
    default:
      return { type: 'string' };
  }
}

function describedInputs(
  op: ServiceOperation,
  dateOrder: DateOrder,
): Array<{ name: string; schema: Schema; description: string }> {
  return [...op.params, ...op.fields].map((name) => {
    const parameter = PARAMETERS[name];
    if (parameter === undefined)
      throw new Error(`${op.name}: the input ${name} is not described in src/services/parameters.ts`);
    const extension = op.fields.includes(name) && op.params.length > 0 ? ' (an extension: not in the WSDL)' : '';
    const forms = parameter.kind === 'date' ? ` (${dateForms(dateOrder)})` : '';
    return {
      name,
      schema: parameterSchema(op, name, parameter),
      description: parameter.description + forms + extension,
    };
  });
}

function responses(service: Service, op: ServiceOperation, method: 'get' | 'post', records: RecordSchemas): Schema {
  const ok =
    op.returns.kind === 'text'
      ? {
          description: `<string xmlns="${service.namespace}">…</string>`,
          content: { 'text/xml': { schema: { type: 'string' } } },
        }
      : {
          description: 'The JSON envelope: success, or a business failure',
          content: { 'application/json': { schema: { oneOf: [ref(`${op.name}Success`), ref('Failure')] } } },
        };
  if (op.returns.kind !== 'text' && method === 'get') {
    records.byName[`${op.name}Success`] = successSchema(op.returns, op.write, records);
  }
  return { '200': ok, default: { $ref: '#/components/responses/ProtocolFailure' } };
}

function operationObject(
  service: Service,
  op: ServiceOperation,
  method: 'get' | 'post',
  records: RecordSchemas,
  dateOrder: DateOrder,
): Schema {
  const inputs = describedInputs(op, dateOrder);
  const common = {
    operationId: method === 'get' ? op.name : `${op.name}_post`,
    tags: [service.name],
    summary: `${op.name} (HTTP ${method.toUpperCase()})`,
  };
  if (method === 'get') {
    return {
      ...common,
      parameters: inputs.map(({ name, schema, description }) => ({
        name,
        in: 'query',
        required: false,
        schema,
        description,
      })),
      responses: responses(service, op, method, records),
    };
  }
  const form = {
    type: 'object',
    properties: Object.fromEntries(inputs.map(({ name, schema, description }) => [name, { ...schema, description }])),
  };
  const content: Record<string, Schema> = { 'application/x-www-form-urlencoded': { schema: form } };
  if (inputs.length > 0) content['application/json'] = { schema: form };
  if (op.acceptsFiles) {
    content['multipart/form-data'] = {
      schema: {
        ...form,
        additionalProperties: {
          type: 'string',
          contentMediaType: 'application/octet-stream',
          description: 'A file part, under any name',
        },
      },
    };
  }
  return { ...common, requestBody: { required: false, content }, responses: responses(service, op, method, records) };
}

/** The version of the JSON contract this document states; raise it when the JSON answers change. */
const DOCUMENT_VERSION = '1.0';

/** The whole document, as an object ready for JSON.stringify; `serverUrl`: PUBLIC_URL + BASE_PATH ('' for the default server). */
export function openApiDocument(
  services: readonly Service[],
  serverUrl: string,
  dateOrder: DateOrder,
): Record<string, unknown> {
  const records = new RecordSchemas();
  const paths: Record<string, Schema> = {};
  for (const service of services) {
    for (const op of service.operations.values()) {
      paths[`${service.path}/${op.name}`] = {
        get: operationObject(service, op, 'get', records, dateOrder),
        post: operationObject(service, op, 'post', records, dateOrder),
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: services.map((s) => s.name).join(' and '),
      version: DOCUMENT_VERSION,
      description: [
        'The HTTP GET and HTTP POST bindings of the ASMX services, which answer JSON (the SOAP bindings are described by the WSDL: append ?wsdl to a service).',
        'Every input is optional and every name matches in any case; a business failure is a 200 answer with Success false.',
      ].join(' '),
    },
    // Without a base path or PUBLIC_URL the default server ("/") is right.
    ...(serverUrl === '' ? {} : { servers: [{ url: serverUrl }] }),
    tags: services.map((s) => ({ name: s.name })),
    paths,
    components: {
      schemas: { ...records.byName, Failure: FAILURE_SCHEMA, ErrorCode: ERROR_CODE_SCHEMA },
      responses: {
        ProtocolFailure: {
          description:
            'A protocol failure (unknown operation, malformed request, size limit, the server’s own failure): the legacy platform’s status with a plain-text body',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
      },
    },
  };
}

/** The only files of the package that the page loads; nothing else of node_modules is reachable. */
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);
const DIST = path.dirname(require.resolve('swagger-ui-dist/package.json'));

/** A file rather than inline, so the page's Content-Security-Policy allows its own files and no inline script; no public validator. */
const INIT = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({ url: root.getAttribute('data-url'), dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true });
});
`;

/** {BASE_PATH}/API/docs: the OpenAPI document in Swagger UI, every asset served here, so it works without internet. */
export function apiDocs(settings: Settings): Router {
  const router = Router();
  const at = `${settings.basePath}/API/docs`;
  const policy = docsPolicy(settings);
  router.get(at, (req: Request, res: Response) => {
    const root = publicAddress(req, settings).prefix + at;
    res
      .status(200)
      .set({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'private, max-age=0',
        'Content-Security-Policy': policy,
      })
      .send(page(root));
  });
  router.get(`${at}/init.js`, (_req, res) => {
    res
      .status(200)
      .set({ 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'private, max-age=0' })
      .send(INIT);
  });
  router.get(`${at}/:asset`, (req, res, next) => {
    const asset = req.params.asset;
    if (!ASSETS.has(asset)) return next();
    res.set('Cache-Control', 'private, max-age=0').sendFile(path.join(DIST, asset), { cacheControl: false });
  });
  return router;
}

/**
 * The page's own files; the icons swagger-ui.css holds as data: URLs; "Try it out" calls this server,
 * or the PUBLIC_URL the document names as its server, which may be another origin than the page's.
 */
function docsPolicy(settings: Settings): string {
  const connect = settings.publicUrl === undefined ? "'self'" : `'self' ${new URL(settings.publicUrl).origin}`;
  return pagePolicy({
    'script-src': "'self'",
    'style-src': "'self'",
    'img-src': "'self' data:",
    'connect-src': connect,
  });
}

function page(root: string): string {
  const openApi = root.slice(0, -'/docs'.length) + '/openapi.json';
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>API documentation</title>
    <link rel="stylesheet" href="${esc(root)}/swagger-ui.css" />
    <link rel="icon" type="image/png" href="${esc(root)}/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui" data-url="${esc(openApi)}"></div>
    <script src="${esc(root)}/swagger-ui-bundle.js"></script>
    <script src="${esc(root)}/init.js"></script>
  </body>
</html>
`;
}
