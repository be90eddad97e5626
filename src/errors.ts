/**
 * The one catalogue of business failures (docs/behaviour.md, "Result format").
 *
 * Operations throw AppError; the bindings map it once:
 * - HTTP GET / HTTP POST: 200 with {"Success": false, "Code", "Message", "Field", "Data": null}
 * - SOAP 1.1 / 1.2: a fault with the fault code below (Client/Sender for every business failure,
 *   the request could succeed only if the client changed it) and the same message.
 * Protocol failures (unknown operation, malformed envelope, ...) are not here: they keep the legacy
 * platform's texts and live with the protocol code in src/asmx.
 */

/** The codes, each with what it means (the OpenAPI document lists them with these words). */
export const ERROR_CODES = {
  INVALID_PARAMETER: 'A parameter has a value that cannot be understood or is out of range.',
  MISSING_PARAMETER: 'A required field of a write operation is missing.',
  NOT_FOUND: 'A referenced record does not exist.',
  INVALID_STATE: 'The record is in a state that does not allow this change.',
  FORBIDDEN: 'The user may not see or do this.',
  CONFLICT: 'The change conflicts with data already stored.',
  PAYLOAD_TOO_LARGE: 'A file or set of files exceeds a configured limit.',
  UNSUPPORTED_MEDIA: 'A file is not of an accepted type.',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** The parameter or field the failure is about, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const invalid = (field: string, message: string) => new AppError('INVALID_PARAMETER', `${field}: ${message}`, field);
export const missing = (field: string) => new AppError('MISSING_PARAMETER', `${field} is required`, field);
export const notFound = (field: string, message: string) => new AppError('NOT_FOUND', message, field);

/**
 * The upload limits of the settings (MAX_FILE_BYTES, MAX_FILES_PER_REQUEST, MAX_REQUEST_FILES_BYTES),
 * in one wording wherever they are enforced: by the body reader as the parts arrive (so an oversized
 * upload is never read whole) and by the warranty files as they are stored.
 */
export const fileTooLarge = (field: string, fileName: string, limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `${field}: file '${fileName}' is larger than the limit of ${limit} bytes per file`, field);
export const tooManyFiles = (limit: number) => new AppError('PAYLOAD_TOO_LARGE', `At most ${limit} files may be sent in one request`, 'files');
export const filesTooLarge = (limit: number) => new AppError('PAYLOAD_TOO_LARGE', `The files of one request may hold at most ${limit} bytes`, 'files');
