/**
 * multipart/form-data bodies: fields as name/value pairs, file parts as UploadedFile for an operation
 * that accepts files, within the settings' limits (docs/operations.md, "Input limits"). busboy would put
 * U+FFFD in place of bytes that are not UTF-8, so the raw parts are checked after it.
 */
import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';
import type { Settings } from '../../config';
import { fileTooLarge, filesTooLarge, invalid, tooManyFiles } from '../../errors';
import type { UploadedFile } from '../../operations/types';
import { checkedField, decodeUtf8, invalidRequestFormat, tooManyFields } from './input-text';
import { MULTIPART_BYTES_PER_TURN } from '../../tunables';

export type FileLimits = Pick<Settings, 'maxFileBytes' | 'maxFilesPerRequest' | 'maxRequestFilesBytes'>;

interface MultipartContent {
  values: [string, string][];
  files: UploadedFile[];
}

interface MultipartOptions {
  acceptFiles: boolean;
  limits: FileLimits;
  maxFieldBytes: number;
  /** Most parts, fields and files together (MAX_REQUEST_FIELDS). */
  maxParts: number;
}

export async function parseMultipart(
  headers: IncomingHttpHeaders,
  body: Buffer,
  options: MultipartOptions,
): Promise<MultipartContent> {
  const content = await readParts(headers, body, options);
  const badField = firstFieldNotUtf8(body, boundaryOf(String(headers['content-type'] ?? '')));
  if (badField !== undefined) throw invalid(badField, 'is not valid UTF-8');
  return content;
}

function readParts(headers: IncomingHttpHeaders, body: Buffer, options: MultipartOptions): Promise<MultipartContent> {
  return new Promise((resolve, reject) => {
    const contentType = String(headers['content-type'] ?? '');
    const collector = new PartCollector(options.acceptFiles, options.limits);
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers,
        // Browsers send part names and file names as raw UTF-8; busboy's default (latin1) garbles them.
        defParamCharset: 'utf8',
        limits: {
          // One byte over the limit, so a file of exactly the limit is whole and a larger one is cut and flagged.
          fileSize: options.limits.maxFileBytes + 1,
          files: options.limits.maxFilesPerRequest,
          fieldSize: options.maxFieldBytes,
          // busboy signals partsLimit when the count is reached, so one over: the part past the bound is refused.
          parts: options.maxParts + 1,
        },
      });
    } catch {
      reject(invalidRequestFormat(contentType));
      return;
    }
    // busboy gives an undefined name for name="" (its types say string): a field without a name.
    parser.on('field', (name: string | undefined, value) => collector.field(name ?? '', value));
    parser.on('file', (name: string | undefined, stream, info) => collector.file(name ?? '', stream, info));
    parser.on('filesLimit', () => collector.fail(tooManyFiles(options.limits.maxFilesPerRequest)));
    parser.on('partsLimit', () => collector.fail(tooManyFields(options.maxParts)));
    parser.on('error', () => {
      const error = invalidRequestFormat(contentType);
      collector.fail(error);
      reject(collector.failure ?? error);
    });
    parser.on('close', () => collector.finish(resolve, reject));
    feed(parser, body, collector, reject).catch(reject);
  });
}

/** The body in slices, a turn of the event loop apart, stopping at the first failure: the rest of a hostile body is never parsed. */
async function feed(
  parser: busboy.Busboy,
  body: Buffer,
  collector: PartCollector,
  reject: (error: unknown) => void,
): Promise<void> {
  for (let offset = 0; offset < body.length; offset += MULTIPART_BYTES_PER_TURN) {
    if (offset > 0) await nextTurn();
    parser.write(body.subarray(offset, offset + MULTIPART_BYTES_PER_TURN));
    if (collector.failure) {
      reject(collector.failure);
      parser.destroy();
      return;
    }
  }
  parser.end();
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

class PartCollector {
  readonly values: [string, string][] = [];
  private readonly files: UploadedFile[] = [];
  failure: Error | undefined;
  private totalBytes = 0;

  constructor(
    private readonly acceptFiles: boolean,
    private readonly limits: FileLimits,
  ) {}

  field(name: string, value: string): void {
    try {
      this.values.push(checkedField(name, value));
    } catch (error) {
      this.fail(error as Error);
    }
  }

  file(field: string, stream: NodeJS.ReadableStream & { truncated?: boolean }, info: busboy.FileInfo): void {
    // A body that ends inside a file part errors the file's stream too: without a listener that error
    // would be unhandled and end the process. The parser's own 'error' answers the request.
    stream.on('error', () => undefined);
    if (!this.acceptFiles) {
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const content = Buffer.concat(chunks);
      if (content.length > this.limits.maxFileBytes)
        this.fail(fileTooLarge(field, info.filename || field, this.limits.maxFileBytes));
      else this.add(field, info, content);
    });
  }

  fail(error: Error): void {
    this.failure ??= error;
  }

  finish(resolve: (content: MultipartContent) => void, reject: (err: unknown) => void): void {
    if (this.failure) reject(this.failure);
    else resolve({ values: this.values, files: this.files });
  }

  private add(field: string, info: busboy.FileInfo, content: Buffer): void {
    // An empty file input of a browser form sends a part with no name and no bytes: not a file.
    if (!info.filename && content.length === 0) return;
    this.totalBytes += content.length;
    if (this.totalBytes > this.limits.maxRequestFilesBytes) this.fail(filesTooLarge(this.limits.maxRequestFilesBytes));
    this.files.push({ field, fileName: info.filename ?? '', declaredType: info.mimeType ?? '', content });
  }
}

function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** The name of the first part whose headers or field bytes are not UTF-8 (after busboy: the parts are well formed). */
function firstFieldNotUtf8(body: Buffer, boundary: string | undefined): string | undefined {
  if (boundary === undefined) return undefined;
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  let at = body.indexOf(delimiter.subarray(2));
  while (at >= 0) {
    const start = at + delimiter.length - 2;
    const next = body.indexOf(delimiter, start);
    if (next < 0) return undefined;
    const bad = badFieldName(body.subarray(start, next));
    if (bad !== undefined) return bad;
    at = next + 2;
  }
  return undefined;
}

function badFieldName(part: Buffer): string | undefined {
  const headerEnd = part.indexOf('\r\n\r\n');
  if (headerEnd < 0) return undefined;
  const headers = part.subarray(0, headerEnd).toString('latin1');
  if (decodeUtf8(part.subarray(0, headerEnd)) === undefined) return nameIn(headers);
  if (/;\s*filename\*?\s*=/i.test(headers) || /^content-type:\s*application\/octet-stream/im.test(headers))
    return undefined;
  const charset = /^content-type:[^\r\n]*;\s*charset\s*=\s*"?([^";\s]+)/im.exec(headers)?.[1].toLowerCase();
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return undefined;
  return decodeUtf8(part.subarray(headerEnd + 4)) === undefined ? nameIn(headers) : undefined;
}

/** The part's name for the error message; the headers were read as latin1, so this is their bytes. */
function nameIn(headers: string): string {
  const name = /;\s*name\s*=\s*"([^"]*)"/i.exec(headers)?.[1] ?? '';
  return decodeUtf8(Buffer.from(name, 'latin1')) ?? name;
}
