/**
 * The SOAP 1.1 and 1.2 bindings of one service: a POST to exactly basePath + service.path (docs/contract.md,
 * "SOAP"), handed over by the app's dispatcher with its classification (src/classifier).
 */
import { principalOf, type BindingRequest, type BindingResponse } from '../../request-context/exchange';
import type { Settings } from '../../config';
import type { Outcome, Service } from '../../services/types';
import { AppError } from '../../errors';
import { ClientAbortedError, isBodyError, readBody } from '../body';
import { sendWhole } from '../../send';
import { envelopeStart, UNEXPECTED_FAULT, type Fault, type SoapVersion } from '../faults';
import { cdataProof, serviceErrorXml } from '../typed-xml';
import { annotate, annotateUnexpected } from '../../request-context/annotation';
import { readSoapCall, type RequestKind, type SoapCall } from '../../classifier';
import { SoapFaultError, SoapHttpError } from '../../classifier/soap-version';
import { isStreamRefusal, refuseStream, type Delivery } from '../delivery';
import { sendFault, sendRejection, sendResponse, sendStatus, sendTypedResponse } from './respond';
import { outputElements, outputXml, readWsdl } from './soap-library';
import { writeRefusal } from '../write-refusal';
import { traceOperation } from '../../tracing/operation-span';

/** A SOAP request as the dispatcher classified it. */
export type SoapKind = Extract<RequestKind, { kind: 'soap' }>;

export interface SoapBinding {
  ready: Promise<void>;
  /** The SOAP answer of a POST to the service's path. */
  answer(req: BindingRequest, res: BindingResponse, kind: SoapKind): void;
}

export function soapBinding(service: Service, wsdlXml: string, settings: Settings, delivery: Delivery): SoapBinding {
  const engine = startSoapEngine(service, wsdlXml);
  const ready = engine.then(() => undefined);
  // A WSDL the soap library cannot read is reported through `ready` and answered per request as a fault.
  ready.catch(() => undefined);
  const context: SoapContext = { service, engine, settings, delivery };
  const answer = (req: BindingRequest, res: BindingResponse, kind: SoapKind) => {
    answerSoap(req, res, kind, context).catch((error: unknown) => {
      // Never an unhandled rejection (it would end the process): log, and answer if still possible.
      annotateUnexpected(res, error);
      if (!res.headersSent) sendFault(res, kind.version, UNEXPECTED_FAULT);
      else res.destroy();
    });
  };
  return { ready, answer };
}

interface SoapContext {
  service: Service;
  delivery: Delivery;
  engine: Promise<ResponseDocument>;
  settings: Settings;
}

async function answerSoap(
  req: BindingRequest,
  res: BindingResponse,
  kind: SoapKind,
  context: SoapContext,
): Promise<void> {
  let call: SoapCall;
  try {
    call = await readCall(req, kind, context);
  } catch (error) {
    // The log names no operation for a call refused (its action may have named one).
    kind.operation = undefined;
    answerRefusal(res, kind.version, error);
    return;
  }
  kind.operation = call.operation;
  const { service } = context;
  const refused = writeRefusal(service.operations.get(call.operation)!, req, context.settings);
  if (refused) {
    annotate(res, { outcome: 'forbidden' });
    return sendFault(res, call.version, { kind: 'client', message: refused.message }, refused.status);
  }
  // The legacy contract answers no data, so a read is only checked; v2 answers it typed (docs/v2.md).
  const typed = service.contract === 'v2';
  let document: string;
  let outcome: Outcome;
  try {
    const responseDocument = await context.engine;
    const streamTurn = () => context.delivery.streams.admit(req, res);
    const input = {
      values: call.values,
      files: [],
      principal: principalOf(res),
      ...(typed ? { streams: true, streamTurn } : { resultDiscarded: true }),
    };
    outcome = await traceOperation(res, service, call.operation, () => service.invoke(call.operation, input));
    document =
      typed && outcome.kind === 'result'
        ? ''
        : responseDocument(call.version, call.operation, responseObject(call.operation, outcome));
  } catch (error) {
    // The client's fault past its share; the server's when it had no turn to give in time.
    if (isStreamRefusal(error))
      return refuseStream(res, error, (status, message) =>
        sendFault(res, call.version, { kind: status === 503 ? 'server' : 'client', message }, status),
      );
    const fault = faultFor(error, service);
    if (fault.kind === 'server') annotateUnexpected(res, error);
    else annotate(res, { outcome: 'business_error', errorCode: (error as AppError).code });
    sendFault(res, call.version, fault);
    return;
  }
  annotate(res, { outcome: 'success' });
  if (outcome.kind === 'result' && typed) {
    const op = service.operations.get(call.operation)!;
    if ((await sendTypedResponse(res, call.version, service, op, outcome.result, context.delivery.spool)) === 'aborted')
      annotate(res, { outcome: 'aborted' });
    return;
  }
  sendResponse(res, call.version, document);
}

/** Everything that can refuse a request before its operation runs, in order: a body is read only in a SOAP media type. */
async function readCall(req: BindingRequest, kind: SoapKind, context: SoapContext): Promise<SoapCall> {
  if (!kind.contentType) throw new SoapHttpError(415, '1.1');
  const body = await readBody(req, context.settings.maxRequestBytes);
  return readSoapCall(kind, body, { maxDepth: context.settings.maxXmlDepth, maxNodes: context.settings.maxXmlNodes });
}

/** A report's {} is the empty <opResponse xmlns="ns" />; HelloWorld's text is <opResult>. */
function responseObject(operation: string, outcome: Outcome): Record<string, string> {
  if (outcome.kind !== 'string') return {};
  return { [`${operation}Result`]: cdataProof(outcome.value) };
}

/**
 * AppError is the client's to fix: Client/Sender with its message. Anything else is the server's:
 * Server/Receiver with a fixed text. The v2 contract declares the detail (Code, Field: docs/v2.md).
 */
function faultFor(error: unknown, service: Service): Fault {
  if (!(error instanceof AppError)) return UNEXPECTED_FAULT;
  if (service.contract === 'v2')
    return { kind: 'client', message: error.message, detail: serviceErrorXml(service.namespace, error) };
  return { kind: 'client', message: error.message };
}

/** Body errors get their status with an empty body, like ASMX's other HTTP-level refusals; anything unforeseen a Server fault. */
function answerRefusal(res: BindingResponse, version: SoapVersion, error: unknown): void {
  if (error instanceof SoapFaultError || error instanceof SoapHttpError) return sendRejection(res, error);
  if (error instanceof ClientAbortedError) return annotate(res, { outcome: 'aborted' });
  if (isBodyError(error)) {
    annotate(res, { outcome: 'protocol_error' });
    return sendStatus(res, error.status, version);
  }
  annotateUnexpected(res, error);
  sendFault(res, version, UNEXPECTED_FAULT);
}

/**
 * A successful call's document: the npm soap library writes its Body content in ASMX's envelope (faults.ts);
 * an operation the WSDL lacks throws. Requests bypass the library's server: the guard has parsed them once
 * already, and the library would parse them again and answer in two writes.
 */
type ResponseDocument = (version: SoapVersion, operation: string, result: Record<string, string>) => string;

async function startSoapEngine(service: Service, wsdlXml: string): Promise<ResponseDocument> {
  const wsdl = await readWsdl(wsdlXml, { useEmptyTag: true });
  const outputs = outputElements(wsdl, service.name);
  // The same result always has the same document: the empty result of every report operation, and
  // HelloWorld's constant text. Such short results are serialised once per version and operation.
  const documents = new Map<string, string>();
  return (version, operation, result) => {
    const output = outputs.get(operation);
    if (!output) throw new Error(`The WSDL of ${service.name} has no operation ${operation}`);
    // A result too long to keep has no key.
    const text = JSON.stringify(result);
    const key = text.length > MAX_KEPT_RESULT_CHARS ? undefined : `${version} ${operation} ${text}`;
    let document = key === undefined ? undefined : documents.get(key);
    if (document === undefined) {
      document = `${envelopeStart(version)}<soap:Body>${outputXml(wsdl, output, result)}</soap:Body></soap:Envelope>`;
      if (key !== undefined && documents.size < MAX_KEPT_DOCUMENTS) documents.set(key, document);
    }
    return document;
  };
}

/** Documents kept per service: every operation's empty answer in both versions, and a few short results. */
const MAX_KEPT_DOCUMENTS = 256;
const MAX_KEPT_RESULT_CHARS = 256;

/** Any method but GET and POST on the .asmx itself: 405 with ASP.NET's text (docs/contract.md, recorded: main-head, verb-PUT-asmx). */
export function methodNotAllowed(res: BindingResponse): void {
  annotate(res, { outcome: 'protocol_error' });
  const page =
    '<html><head><title>Request format is unrecognized.</title></head><body><h1>Error 405</h1><p>Request format is unrecognized.</p></body></html>';
  res.setHeader('Allow', 'GET, POST');
  sendWhole(res, 405, 'text/html; charset=utf-8', page, 'private');
}
