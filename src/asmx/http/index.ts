/** The HTTP GET and POST bindings at <path>/<op> (docs/contract.md): method names are case-sensitive, parameter names not. */
import { principalOf, type BindingRequest, type BindingResponse } from '../../request-context/exchange';
import type { Settings } from '../../config';
import { AppError } from '../../errors';
import type { OperationResult } from '../../operations/types';
import type { InvokeInput, Outcome, Service, ServiceOperation } from '../../services/types';
import type { CachedAnswer } from '../../services/answer-cache';
import { negotiatedCoding } from '../../response-compression';
import { ClientAbortedError, isBodyError, readBody } from '../body';
import { JSON_TYPE, writeEnvelope, writeFailureEnvelope } from './envelope';

export { successEnvelope } from './envelope';
import { HttpProtocolError, invalidRequestFormat, readFormPairs } from './input-text';
import { jsonMembers } from './json-body';
import { parseMultipart } from './multipart';
import { HTTP_TEXT } from '../../protocol-texts';
import { sendPlainError, sendPlainServerError } from '../plain-error';
import { sendCompressed, sendCounted, sendWhole } from '../../send';
import { annotate, annotateUnexpected } from '../../request-context/annotation';
import { escapeXml } from '../xml-escape';
import { writeRefusal, type WriteRefusal } from '../write-refusal';
import { sendTypedAnswer, serviceErrorXml, v2ResultTypeName, writeTypedResult } from '../typed-xml';
import { traceOperation } from '../../tracing/operation-span';
import { isStreamRefusal, refuseStream, type Delivery } from '../delivery';
import type { RequestKind } from '../../classifier';

/** A request whose path continues after the .asmx, as the dispatcher classified it (src/classifier). */
export type HttpKind = Extract<RequestKind, { kind: 'http' }>;

/** Answers a request whose path continues after the .asmx (kind.rest: "/op"). */
export async function handleHttpBinding(
  service: Service,
  settings: Settings,
  delivery: Delivery,
  req: BindingRequest,
  res: BindingResponse,
  kind: HttpKind,
): Promise<void> {
  // The legacy server's (docs/contract.md, "Recorded legacy answers"): private on a refusal, and
  // private, max-age=0 on whatever the operation answered, its own failure included.
  res.setHeader('Cache-Control', 'private');
  try {
    const op = operationOf(service, kind);
    const refused = writeRefusal(op, req, settings);
    if (refused) return refuseWrite(res, refused);
    const input = req.method === 'GET' ? queryInput(req.originalUrl) : await bodyInput(req, op, settings);
    const legacyJson = service.contract === 'legacy';
    res.setHeader('Cache-Control', 'private, max-age=0');
    const streamTurn = () => delivery.streams.admit(req, res);
    const invokeInput = {
      values: input.values,
      files: input.files,
      principal: principalOf(res),
      streams: true,
      streamTurn,
      answerForm: legacyJson ? 'json' : undefined,
    };
    const outcome = await traceOperation(res, service, op.name, () => service.invoke(op.name, invokeInput));
    if (service.contract === 'v2' && outcome.kind === 'result')
      return await sendTypedOutcome(res, service, op, outcome.result, delivery);
    await sendOutcome(res, service, outcome, delivery);
  } catch (err) {
    if (service.contract === 'v2' && err instanceof AppError) return sendTypedFailure(res, service, err);
    sendFailure(res, err);
  }
}

/** The v2 contract's HTTP GET/POST answer (docs/v2.md): the result element as the document's root, ASMX style. */
async function sendTypedOutcome(
  res: BindingResponse,
  service: Service,
  op: ServiceOperation,
  result: OperationResult,
  delivery: Delivery,
): Promise<void> {
  annotate(res, { outcome: 'success' });
  try {
    const end = await sendTypedAnswer(res, delivery.spool, {
      service,
      status: 200,
      contentType: 'text/xml; charset=utf-8',
      root: (stream) =>
        writeTypedResult(stream, service.namespace, v2ResultTypeName(op.name), op.returns, result, true),
    });
    if (end === 'aborted') annotate(res, { outcome: 'aborted' });
  } catch (err) {
    // After the first bytes the answer cannot become an error any more: sendTypedAnswer has cut the
    // connection; the failure is logged (as for a streamed JSON list).
    if (!res.headersSent) throw err;
    annotateUnexpected(res, err);
  }
}

/** A v2 business failure over HTTP: 500, as ASMX answers an operation's exception there, with the ServiceError document. */
function sendTypedFailure(res: BindingResponse, service: Service, error: AppError): void {
  annotate(res, { outcome: 'business_error', faultCode: error.code });
  sendWhole(
    res,
    500,
    'text/xml; charset=utf-8',
    `<?xml version="1.0" encoding="utf-8"?>${serviceErrorXml(service.namespace, error)}`,
  );
}

/** A write refused before it runs (write-refusal.ts): the binding's plain-text error, whatever the contract. */
function refuseWrite(res: BindingResponse, refusal: WriteRefusal): void {
  annotate(res, { outcome: refusal.status === 405 ? 'protocol_error' : 'forbidden' });
  if (refusal.allow) res.setHeader('Allow', refusal.allow);
  sendPlainError(res, refusal.status, refusal.message);
}

const FORM = 'application/x-www-form-urlencoded';

/**
 * What the HTTP bindings hand to a service (docs/contract.md, "HTTP GET and HTTP POST"): GET reads the
 * query string, at most as long as Node's header limit (16 KiB), so it needs no field bound.
 */
function queryInput(originalUrl: string): InvokeInput {
  const at = originalUrl.indexOf('?');
  // Node refuses a request line with bytes outside ASCII, so latin1 gives back the exact bytes.
  return { values: at < 0 ? [] : readFormPairs(Buffer.from(originalUrl.slice(at + 1), 'latin1')), files: [] };
}

/** POST reads the body: an operation with contract parameters takes only a form, one without multipart and JSON too. */
async function bodyInput(req: BindingRequest, op: ServiceOperation, settings: Settings): Promise<InvokeInput> {
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
    return {
      values: jsonMembers(body, contentType, { maxDepth: settings.maxJsonDepth, maxFields: settings.maxRequestFields }),
      files: [],
    };
  }
  // docs/contract.md: operations with no parameters accept any body; one they cannot read carries no input.
  return { values: [], files: [] };
}

/** The operation the classifier found, or the refusal of a name that is none (the method name is case-sensitive). */
function operationOf(service: Service, kind: HttpKind): ServiceOperation {
  const op = kind.operation === undefined ? undefined : service.operations.get(kind.operation);
  if (op) return op;
  const { rest } = kind;
  if (kind.binding === 'other' || rest.length < 2) throw new HttpProtocolError(HTTP_TEXT.unrecognizedUrl(rest));
  const name = rest.slice(1);
  const other = [...service.operations.keys()].find((known) => known.toLowerCase() === name.toLowerCase());
  throw new HttpProtocolError(other ? HTTP_TEXT.wrongCaseMethodName(name, other) : HTTP_TEXT.invalidMethodName(name));
}

async function sendOutcome(
  res: BindingResponse,
  service: Service,
  outcome: Outcome,
  delivery: Delivery,
): Promise<void> {
  annotate(res, { outcome: 'success' });
  if (outcome.kind === 'string') {
    const xml = `<?xml version="1.0" encoding="utf-8"?>\r\n<string xmlns="${escapeXml(service.namespace)}">${escapeXml(outcome.value)}</string>`;
    sendWhole(res, 200, 'text/xml; charset=utf-8', xml);
    return;
  }
  if (outcome.kind === 'cached') return sendCached(res, outcome.answer);
  try {
    if ((await writeEnvelope(res, outcome.result, delivery.spool, outcome.cacheWriter)) === 'aborted')
      annotate(res, { outcome: 'aborted' });
  } catch (err) {
    // Once the head is sent a failure can no longer become an error answer: the connection is cut,
    // so the client never takes a truncated answer for a whole one, and the failure is logged.
    if (!res.headersSent) throw err;
    annotateUnexpected(res, err);
    res.destroy();
  }
}

/** A kept answer (answer-cache.ts): in its compressed form when the request asks for one and it is there. */
function sendCached(res: BindingResponse, answer: CachedAnswer): void {
  const coding = negotiatedCoding(res.req, answer.body.length);
  const compressed = coding === undefined ? undefined : answer.compressed(coding);
  if (coding !== undefined && compressed !== undefined) return sendCompressed(res, 200, JSON_TYPE, coding, compressed);
  sendCounted(res, 200, JSON_TYPE, answer.body, answer.body.length);
}

function sendFailure(res: BindingResponse, err: unknown): void {
  if (err instanceof AppError) {
    annotate(res, { outcome: 'business_error', faultCode: err.code });
    return writeFailureEnvelope(res, err);
  }
  if (isStreamRefusal(err)) return refuseStream(res, err, (status, message) => sendPlainError(res, status, message));
  if (err instanceof HttpProtocolError) {
    annotate(res, { outcome: 'protocol_error' });
    return sendPlainError(res, err.status, err.message);
  }
  if (isBodyError(err)) {
    annotate(res, { outcome: err instanceof ClientAbortedError ? 'aborted' : 'protocol_error' });
    // Size limit, broken or unknown Content-Encoding (body.ts): their messages carry no internals.
    return sendPlainError(res, err.status, `${err.message}.`);
  }
  annotateUnexpected(res, err);
  sendPlainServerError(res);
}
