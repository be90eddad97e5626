/**
 * What the HTTP bindings hand to a service (docs/contract.md, "HTTP GET and HTTP POST"): GET reads the
 * query string, POST the body; an operation with contract parameters takes only a form body, one
 * without takes multipart and JSON too.
 */
import type { IncomingMessage } from 'node:http';
import type { Settings } from '../../config';
import type { InvokeInput, ServiceOperation } from '../../services/types';
import { readBody } from '../body';
import { invalidRequestFormat, readFormPairs } from './input-text';
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
  // One limit for every body of every binding, uploads included; the file limits apply inside it.
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
