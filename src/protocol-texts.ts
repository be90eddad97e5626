/** The legacy platform's protocol failure texts verbatim, except where a comment says a text is this project's own. */

/** The faultstring / Reason texts of the SOAP 1.1 and SOAP 1.2 bindings (src/asmx/faults.ts writes the documents). */
export const FAULT_TEXT = {
  unknownSoapAction: (action: string) => `Server did not recognize the value of HTTP Header SOAPAction: ${action}.`,
  unknownRequestElement: (name: string, ns: string) =>
    `The request element <${name} xmlns='${ns}'> was not recognized.`,
  unknownAction: (action: string) => `Unable to handle request. The action '${action}' was not recognized.`,
  noValidAction: () => 'Unable to handle request without a valid action parameter. Please supply a valid soap action.',
  /** This project's own (ASMX runs the action's operation with every parameter null), worded like the platform's. */
  actionBodyMismatch: (action: string, name: string, ns: string) =>
    `The request element <${name} xmlns='${ns}'> does not match the action '${action}'.`,
  /** `expected`: the SOAP 1.1 envelope namespace, which the legacy server names whatever was sent. */
  versionMismatch: (ns: string, expected: string) =>
    `Possible SOAP version mismatch: Envelope namespace ${ns} was unexpected. Expecting ${expected}.`,
  missingEnvelope: () =>
    'Server was unable to read request. ---> Request format is invalid: Missing required soap:Envelope element.',
  missingBody: () =>
    'Server was unable to read request. ---> Request format is invalid: Missing required soap:Body element.',
  /** An empty request body, as .NET's XmlReader reports it. */
  rootElementMissing: () => 'Server was unable to process request. ---> Root element is missing.',
  headerNotUnderstood: (name: string) => `SOAP header ${name} was not understood.`,
  /** No valid credentials (401): IIS refused such requests before ASMX saw them; this is Windows' own text. */
  accessDenied: () => 'Access is denied.',
  /** The client exceeded RATE_LIMIT_PER_MINUTE / RATE_LIMIT_BURST (this project's own). Status 429 with Retry-After. */
  tooManyRequests: (retryAfterSeconds: number) => `Too many requests; retry after ${retryAfterSeconds} seconds.`,
  /** Too many password checks at once (src/auth/verification-gate.ts; this project's own). Status 503 with Retry-After. */
  serverBusy: (retryAfterSeconds: number) => `Server too busy; retry after ${retryAfterSeconds} seconds.`,
  /** A write sent by a browser from another site while authentication is on (src/asmx/write-refusal.ts; this project's own). Status 403. */
  crossSiteWrite: () => 'A write sent from another site is refused.',
  /** An operation failed for a reason of the server's own; never its internal message or stack. */
  unexpected: () => 'Server was unable to process request. ---> An unexpected error occurred on the server.',
} as const;

/** The plain-text answers of the HTTP GET and HTTP POST bindings (src/asmx/plain-error.ts writes them). */
export const HTTP_TEXT = {
  unrecognizedUrl: (rest: string) => `Request format is unrecognized for URL unexpectedly ending in '${rest}'.`,
  invalidMethodName: (name: string) => `${name} Web Service method name is not valid.`,
  /** The double spaces are ASMX's own. */
  wrongCaseMethodName: (got: string, actual: string) =>
    `Invalid method name '${got}',  method names are case sensitive.   The method name '${actual}' with the same name but different casing was found.`,
  invalidRequestFormat: (contentType: string) => `Request format is invalid: ${contentType}.`,
  /** The input bounds (docs/operations.md, "Input limits"): this project's own texts. */
  tooManyFields: (max: number) => `Request has more than ${max} fields.`,
  notUtf8: () => 'Request body is not valid UTF-8.',
  nestedTooDeep: (max: number) => `Request body is nested deeper than ${max} levels.`,
  entityTooLarge: () => 'Request entity too large.',
  badRequest: () => 'Bad request.',
  /** A write over HTTP GET while authentication is on (src/asmx/write-refusal.ts; this project's own). Status 405. */
  writeNeedsPost: (name: string) => `${name} changes data and must be sent with POST.`,
  /** A failure of the server's own. */
  serverError: () => 'Server was unable to process request.',
  /** Any path outside the services, their documents and the probes: this project's own text. */
  notFound: () => 'Not Found',
} as const;
