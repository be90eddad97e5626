/** The one catalogue of business failures: operations throw AppError; protocol failures live in protocol-texts.ts. */

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

export const invalid = (field: string, message: string) =>
  new AppError('INVALID_PARAMETER', `${field}: ${message}`, field);
export const missing = (field: string) => new AppError('MISSING_PARAMETER', `${field} is required`, field);
export const notFound = (field: string, message: string) => new AppError('NOT_FOUND', message, field);

/** The upload limits of the settings, in one wording for the body reader and the warranty files. */
export const fileTooLarge = (field: string, fileName: string, limit: number) =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `${field}: file '${fileName}' is larger than the limit of ${limit} bytes per file`,
    field,
  );
export const tooManyFiles = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `At most ${limit} files may be sent in one request`, 'files');
export const filesTooLarge = (limit: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The files of one request may hold at most ${limit} bytes`, 'files');
