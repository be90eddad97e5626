/**
 * What the HTTP bindings hand to a service (docs/contract.md, "HTTP GET and HTTP POST"): GET reads only
 * the query string, POST only the body. An operation with contract parameters takes only
 * application/x-www-form-urlencoded; one without takes any body, so multipart parts and a JSON object
 * reach the operations whose inputs are extra fields (docs/behaviour.md, "Conventions of every operation").
 *
 * Every form of input is read strictly and within bounds (docs/operations.md, "Input limits"): text
 * that is not UTF-8 or holds characters XML cannot carry is refused (input-text.ts), a body may carry at
 * most MAX_REQUEST_FIELDS fields, and a JSON body is nested at most MAX_JSON_DEPTH deep (json-body.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { Settings } from '../../config';
import type { InvokeInput, ServiceOperation } from '../../services/types';
import { readBody } from '../body';
import { invalidRequestFormat } from './errors';
import { readFormPairs } from './input-text';
import { jsonMembers } from './json-body';
import { parseMultipart } from './multipart';

const FORM = 'application/x-www-form-urlencoded';

/** The query string is at most as long as Node's header limit (16 KiB), so it needs no field bound. */
export function queryInput(originalUrl: string): InvokeInput {
  const at = originalUrl.indexOf('?');
  // Node refuses a request line with bytes outside ASCII, so latin1 gives back the exact bytes.
  return { values: at < 0 ? [] : readFormPairs(Buffer.from(originalUrl.slice(at + 1), 'latin1')), files: [] };
}

export async function bodyInput(req: IncomingMessage, op: ServiceOperation, settings: Settings): Promise<InvokeInput> {
  const contentType = req.headers['content-type'] ?? '';
  const media = contentType.split(';')[0].trim().toLowerCase();
  if (op.params.length > 0 && media !== FORM) throw invalidRequestFormat(contentType);
  // One limit for every body of every binding (MAX_REQUEST_BYTES): uploads included, so a SOAP and an
  // HTTP POST upload are bounded alike; the per-file and per-request file limits apply inside it.
  const body = await readBody(req, settings.maxRequestBytes);
  if (media === FORM) return { values: readFormPairs(body, settings.maxRequestFields), files: [] };
  if (media === 'multipart/form-data') {
    return parseMultipart(req.headers, body, {
      acceptFiles: op.acceptsFiles,
      limits: settings,
      maxFieldBytes: settings.maxRequestBytes,
      maxParts: settings.maxRequestFields,
    });
  }
  if (media === 'application/json' || media.endsWith('+json')) {
    return { values: jsonMembers(body, contentType, { maxDepth: settings.maxJsonDepth, maxFields: settings.maxRequestFields }), files: [] };
  }
  // docs/contract.md: operations with no parameters accept any body; one they cannot read carries no input.
  return { values: [], files: [] };
}
