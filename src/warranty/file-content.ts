/**
 * What WarrantyRequestFiles accepts as a file (docs/behaviour.md): the type is sniffed from the bytes (JPEG,
 * PNG, WebP, PDF), never taken from the name or the declared type; names are reduced to a plain file
 * name; base64 content is decoded strictly. Nothing here touches the database.
 */
import { createHash } from 'node:crypto';
import { AppError, fileTooLarge, invalid } from '../errors';
import type { UploadedFile } from '../operations/types';

/** A file as it came in, its field the multipart field name or FileContent; its declared type is never read. */
export type IncomingFile = Omit<UploadedFile, 'declaredType'>;

export interface CheckedFile extends IncomingFile {
  contentType: string;
  sizeBytes: number;
  sha256: string;
}

export interface FileType {
  contentType: string;
  extension: string;
  matches(bytes: Buffer): boolean;
}

const startsWith = (bytes: Buffer, prefix: readonly number[], at = 0) =>
  bytes.length >= at + prefix.length && prefix.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const SIGNATURES: readonly FileType[] = [
  { contentType: 'image/jpeg', extension: '.jpg', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  {
    contentType: 'image/png',
    extension: '.png',
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  {
    contentType: 'image/webp',
    extension: '.webp',
    matches: (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8),
  },
  { contentType: 'application/pdf', extension: '.pdf', matches: (b) => startsWith(b, ascii('%PDF-')) },
];

const MAX_FILE_NAME_LENGTH = 200;

/** The accepted type the bytes begin with, or undefined. */
export function sniff(content: Buffer): FileType | undefined {
  return SIGNATURES.find((s) => s.matches(content));
}

/**
 * Checks one file against the per-file rules, in this order: not empty, not over maxFileBytes, an
 * accepted type. The name is sanitised; a file without a usable name is called file.<type>.
 */
export function checkFile(file: IncomingFile, maxFileBytes: number): CheckedFile {
  const shownName = sanitiseFileName(file.fileName) || 'the file';
  if (file.content.length === 0) throw invalid(file.field, `file '${shownName}' is empty`);
  if (file.content.length > maxFileBytes) throw fileTooLarge(file.field, shownName, maxFileBytes);
  const type = sniff(file.content);
  if (!type) {
    throw new AppError(
      'UNSUPPORTED_MEDIA',
      `${file.field}: file '${shownName}' is not a JPEG, PNG, WebP or PDF file`,
      file.field,
    );
  }
  return {
    field: file.field,
    fileName: sanitiseFileName(file.fileName) || `file${type.extension}`,
    contentType: type.contentType,
    content: file.content,
    sizeBytes: file.content.length,
    sha256: createHash('sha256').update(file.content).digest('hex'),
  };
}

/**
 * A plain file name: the last path part (either slash), without control characters, characters that
 * no file system takes (<>:"|?*), or leading dots; at most 200 characters, keeping the extension.
 * '' when nothing usable is left.
 */
export function sanitiseFileName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const clean = last
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  const chars = Array.from(clean);
  if (chars.length <= MAX_FILE_NAME_LENGTH) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 ? Array.from(clean.slice(dot)) : [];
  if (extension.length === 0 || extension.length > 16) return chars.slice(0, MAX_FILE_NAME_LENGTH).join('');
  return chars.slice(0, MAX_FILE_NAME_LENGTH - extension.length).join('') + extension.join('');
}

/**
 * Strict base64 (standard or URL-safe alphabet, padding optional, line breaks ignored, an optional
 * data: URL prefix): anything else is an INVALID_PARAMETER error for `field`. A space inside the value
 * is read as '+': in a query string or a form body an unescaped '+' arrives as a space.
 */
export function decodeBase64(value: string, field: string): Buffer {
  let text = value.trim().replace(/ /g, '+').replace(/\s+/g, '');
  const dataUrl = /^data:[^,]*;base64,/i.exec(text);
  if (dataUrl) text = text.slice(dataUrl[0].length);
  const unpadded = text.replace(/={1,2}$/, '');
  const padded = unpadded.length !== text.length;
  if (!/^[A-Za-z0-9+/_-]*$/.test(unpadded) || unpadded.length % 4 === 1 || (padded && text.length % 4 !== 0)) {
    throw invalid(
      field,
      'is not valid base64 (use the standard base64 alphabet A-Z a-z 0-9 + /, optionally padded with =)',
    );
  }
  return Buffer.from(unpadded, 'base64');
}
