/**
 * multipart/form-data bodies for the operations that take extra fields (domain.md: "form fields or
 * multipart parts"). Fields become name/value pairs; file parts become UploadedFile only for an
 * operation that accepts files, within the limits of the settings (a PAYLOAD_TOO_LARGE business
 * failure beyond them, src/errors.ts).
 */
import busboy from 'busboy';
import type { IncomingHttpHeaders } from 'node:http';
import type { Settings } from '../config';
import { AppError } from '../errors';
import type { UploadedFile } from '../operations/types';
import { invalidRequestFormat } from './http-errors';

export type FileLimits = Pick<Settings, 'maxFileBytes' | 'maxFilesPerRequest' | 'maxRequestFilesBytes'>;

export interface MultipartContent {
  values: [string, string][];
  files: UploadedFile[];
}

export function parseMultipart(
  headers: IncomingHttpHeaders,
  body: Buffer,
  options: { acceptFiles: boolean; limits: FileLimits; maxFieldBytes: number },
): Promise<MultipartContent> {
  return new Promise((resolve, reject) => {
    const collector = new PartCollector(options.acceptFiles, options.limits);
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers,
        // One byte over the limit, so a file of exactly the limit is whole and a larger one is cut and flagged.
        limits: { fileSize: options.limits.maxFileBytes + 1, files: options.limits.maxFilesPerRequest, fieldSize: options.maxFieldBytes },
      });
    } catch {
      reject(invalidRequestFormat(String(headers['content-type'] ?? '')));
      return;
    }
    parser.on('field', (name, value) => collector.values.push([name, value]));
    parser.on('file', (name, stream, info) => collector.file(name, stream, info));
    parser.on('filesLimit', () => collector.fail(tooManyFiles(options.limits)));
    parser.on('error', () => reject(invalidRequestFormat(String(headers['content-type'] ?? ''))));
    parser.on('close', () => collector.finish(resolve, reject));
    parser.end(body);
  });
}

class PartCollector {
  readonly values: [string, string][] = [];
  private readonly files: UploadedFile[] = [];
  private failure: AppError | undefined;
  private totalBytes = 0;

  constructor(private readonly acceptFiles: boolean, private readonly limits: FileLimits) {}

  file(field: string, stream: NodeJS.ReadableStream & { truncated?: boolean }, info: busboy.FileInfo): void {
    if (!this.acceptFiles) {
      stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const content = Buffer.concat(chunks);
      if (content.length > this.limits.maxFileBytes) this.fail(fileTooLarge(info.filename || field, this.limits));
      else this.add(field, info, content);
    });
  }

  fail(error: AppError): void {
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
    if (this.totalBytes > this.limits.maxRequestFilesBytes) this.fail(filesTooLarge(this.limits));
    this.files.push({ field, fileName: info.filename ?? '', declaredType: info.mimeType ?? '', content });
  }
}

const fileTooLarge = (name: string, limits: FileLimits) =>
  new AppError('PAYLOAD_TOO_LARGE', `File '${name}' is larger than the limit of ${limits.maxFileBytes} bytes`, 'files');
const filesTooLarge = (limits: FileLimits) =>
  new AppError('PAYLOAD_TOO_LARGE', `The files of one request may hold at most ${limits.maxRequestFilesBytes} bytes`, 'files');
const tooManyFiles = (limits: FileLimits) =>
  new AppError('PAYLOAD_TOO_LARGE', `At most ${limits.maxFilesPerRequest} files may be sent in one request`, 'files');
