/**
 * This server's deliberate differences from the legacy ASMX server (docs/integrators.md, "Deliberate
 * differences"), recognised in a pair of answers so that a comparison reports only what nobody decided.
 * Either server may be the primary, so each rule is tried both ways round: `ours` is the answer that
 * would be this server's, `theirs` the legacy one's.
 */
import type { Answer, Difference } from './compare';
import { header, mediaType, type Call, type RequestHead } from './traffic';

interface Rule {
  name: string;
  /** `differences`: what differs between the two answers, paths the comparison leaves out left out. */
  matches(
    call: Call,
    request: RequestHead & { body: Buffer },
    ours: Answer,
    theirs: Answer,
    differences: readonly Difference[],
  ): boolean;
}

const RULES: readonly Rule[] = [
  {
    // Main-service operations over HTTP GET/POST: JSON here, an empty 200 without a type there.
    name: 'json-result-for-empty-200',
    matches: (call, _request, ours, theirs) =>
      isHttpCall(call) &&
      theirs.status === 200 &&
      theirs.length === 0 &&
      mediaType(ours).startsWith('application/json'),
  },
  {
    // Every parameter is optional here; the legacy HTTP bindings refuse a missing one.
    name: 'missing-parameter-accepted',
    matches: (call, _request, ours, theirs) =>
      isHttpCall(call) &&
      ours.status === 200 &&
      theirs.status === 500 &&
      text(theirs).startsWith('Missing parameter: '),
  },
  {
    // A JSON body is read as fields here; ASP.NET AJAX answers {"d": ...} there.
    name: 'json-body-as-fields',
    matches: (call, request, _ours, theirs) =>
      call.binding === 'post' &&
      header(request.headers, 'content-type').toLowerCase().startsWith('application/json') &&
      /^\s*\{\s*"d"\s*:/.test(text(theirs)),
  },
  {
    // An action naming another operation than the Body is a Client fault here; there the action wins.
    name: 'action-and-body-disagree',
    matches: (call, _request, ours) => call.actionMismatch === true && isFault(ours, 'Client', 'Sender'),
  },
  {
    // A SOAP 1.2 envelope sent as text/xml: a VersionMismatch fault here, a SOAP 1.2 answer there.
    name: 'soap12-envelope-as-text-xml',
    matches: (call, request, ours) =>
      call.binding === 'soap11' &&
      request.body.includes('http://www.w3.org/2003/05/soap-envelope') &&
      isFault(ours, 'VersionMismatch'),
  },
  {
    // WSDL and disco addresses follow the Host header (port included) here, the socket's port there.
    name: 'document-addresses',
    matches: (call, _request, _ours, _theirs, differences) =>
      (call.operation === 'wsdl' || call.operation === 'disco') &&
      differences.every((d) => /\/@(location|ref|docRef|address)$/.test(d.path)),
  },
  {
    // The help pages are this server's own HTML in the .NET page's shape.
    name: 'help-page',
    matches: (call, _request, ours, theirs) => call.operation === 'help' && ours.status === theirs.status,
  },
  {
    // A failure of the server itself: a fixed text here, the exception's message there.
    name: 'server-fault-text',
    matches: (_call, _request, ours, theirs) =>
      ours.status === 500 &&
      theirs.status === 500 &&
      ((isFault(ours, 'Server', 'Receiver') && isFault(theirs, 'Server', 'Receiver')) ||
        (text(ours).startsWith('Server was unable') && theirs.length > 0)),
  },
  {
    // Bodies, documents and fields are bounded here (413, 415, 400); IIS has its own limits.
    name: 'request-limits',
    matches: (_call, _request, ours, theirs) =>
      (ours.status === 413 || ours.status === 415) && theirs.status !== ours.status,
  },
];

/** The name of the deliberate difference the two answers show, if they show one. */
export function deliberateDifference(
  call: Call,
  request: RequestHead & { body: Buffer },
  primary: Answer,
  candidate: Answer,
  differences: readonly Difference[],
): string | undefined {
  return RULES.find(
    (rule) =>
      rule.matches(call, request, primary, candidate, differences) ||
      rule.matches(call, request, candidate, primary, differences),
  )?.name;
}

function isHttpCall(call: Call): boolean {
  return (call.binding === 'get' || call.binding === 'post') && call.service.toLowerCase() === 'mobileappwebservice';
}

function text(answer: Answer): string {
  return answer.body.toString('utf8');
}

/** A SOAP fault whose code's local name is one of `codes` (1.1 faultcode, 1.2 Code/Value). */
function isFault(answer: Answer, ...codes: string[]): boolean {
  const body = text(answer);
  const code = /<(?:[\w.-]+:)?(?:faultcode|Value)>\s*(?:[\w.-]+:)?([\w.]+)\s*</.exec(body)?.[1];
  return code !== undefined && codes.some((wanted) => code === wanted || code.startsWith(`${wanted}.`));
}
