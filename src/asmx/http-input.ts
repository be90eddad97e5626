/**
 * What the HTTP bindings hand to a service (contract.md, "HTTP GET ... and HTTP POST"): GET reads only
 * the query string, POST only the body. An operation with contract parameters takes only
 * application/x-www-form-urlencoded; one without takes any body, so multipart parts and a JSON object
 * reach the operations whose inputs are extra fields (domain.md, "Parameter conventions").
 */
import type { Request } from 'express';
import type { Settings } from '../config';
import type { InvokeInput, ServiceOperation } from '../services/types';
import { readBody } from './body';
import { invalidRequestFormat } from './http-errors';
import { parseMultipart } from './multipart';

const FORM = 'application/x-www-form-urlencoded';

export function queryInput(originalUrl: string): InvokeInput {
  const at = originalUrl.indexOf('?');
  return { values: [...new URLSearchParams(at < 0 ? '' : originalUrl.slice(at + 1))], files: [] };
}

export async function bodyInput(req: Request, op: ServiceOperation, settings: Settings): Promise<InvokeInput> {
  const contentType = req.headers['content-type'] ?? '';
  const media = contentType.split(';')[0].trim().toLowerCase();
  if (op.params.length > 0 && media !== FORM) throw invalidRequestFormat(contentType);
  // One limit for every body of every binding (MAX_REQUEST_BYTES): uploads included, so a SOAP and an
  // HTTP POST upload are bounded alike; the per-file and per-request file limits apply inside it.
  const body = await readBody(req, settings.maxRequestBytes);
  if (media === FORM) return { values: [...new URLSearchParams(body.toString('utf8'))], files: [] };
  if (media === 'multipart/form-data') {
    return parseMultipart(req.headers, body, { acceptFiles: op.acceptsFiles, limits: settings, maxFieldBytes: settings.maxRequestBytes });
  }
  if (media === 'application/json' || media.endsWith('+json')) return { values: jsonMembers(body, contentType), files: [] };
  // contract.md: operations with no parameters accept any body; one they cannot read carries no input.
  return { values: [], files: [] };
}

/** A JSON object's members as strings (numbers and booleans as written; null as absent). */
function jsonMembers(body: Buffer, contentType: string): [string, string][] {
  let parsed: unknown;
  try {
    parsed = body.length === 0 ? {} : JSON.parse(body.toString('utf8'));
  } catch {
    throw invalidRequestFormat(contentType);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalidRequestFormat(contentType);
  const values: [string, string][] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === 'string') values.push([name, value]);
    else if (typeof value === 'number' || typeof value === 'boolean') values.push([name, String(value)]);
    else if (value !== null) values.push([name, JSON.stringify(value)]);
  }
  return values;
}
