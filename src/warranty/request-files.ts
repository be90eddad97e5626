/**
 * WarrantyRequestFiles (docs/behaviour.md): stored in the database, so a request and its files commit
 * together and every server node sees them. New files give the request a new version and change_seq.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { DomainSettings } from '../operations/types';
import { AppError } from '../errors';
import type { CheckedFile } from './file-content';
import { fileId, lockWarrantyWrites, nextValue } from './counters';
import { insertFile, listFiles, touchRequest, visibleRequest, type FileMetaRow } from './repository';
import { fileView } from './request-view';
import type { OfficerBound } from '../users/principal-scope';

type FileLimits = Pick<DomainSettings, 'maxFilesPerRequest' | 'maxRequestFilesBytes'>;

export async function listRequestFiles(db: Kysely<Database>, requestNo: string, allowed?: OfficerBound) {
  await visibleRequest(db, requestNo, allowed);
  return (await listFiles(db, requestNo)).map(fileView);
}

export async function storeRequestFiles(db: Kysely<Database>, requestNo: string, files: readonly CheckedFile[], limits: FileLimits, now: Date, allowed?: OfficerBound) {
  return db.transaction().execute(async (trx) => {
    await lockWarrantyWrites(trx);
    await visibleRequest(trx, requestNo, allowed);
    const existing = await listFiles(trx, requestNo);
    const fresh = newContent(existing, files);
    checkLimits(requestNo, existing, fresh, limits);
    const stamp = now.toISOString();
    const stored = new Map(existing.map((row) => [row.sha256, row]));
    for (const file of fresh) {
      const row = { file_id: fileId(await nextValue(trx, 'warranty_file_id')), request_no: requestNo, file_name: file.fileName, content_type: file.contentType, size_bytes: file.sizeBytes, sha256: file.sha256, created_at: stamp };
      await insertFile(trx, { ...row, content: file.content });
      stored.set(row.sha256, row);
    }
    if (fresh.length > 0) await touchRequest(trx, requestNo, { changeSeq: await nextValue(trx, 'warranty_change_seq'), updatedAt: stamp });
    return { files: files.map((file) => fileView(stored.get(file.sha256)!)), added: fresh.length };
  });
}

/** The files of this call whose content the request does not hold yet, each content once. */
function newContent(existing: readonly FileMetaRow[], files: readonly CheckedFile[]): CheckedFile[] {
  const seen = new Set(existing.map((row) => row.sha256));
  const fresh: CheckedFile[] = [];
  for (const file of files) {
    if (seen.has(file.sha256)) continue;
    seen.add(file.sha256);
    fresh.push(file);
  }
  return fresh;
}

/** The per-request limits (settings) count the files already stored plus the new ones. */
function checkLimits(requestNo: string, existing: readonly FileMetaRow[], fresh: readonly CheckedFile[], limits: FileLimits): void {
  const count = existing.length + fresh.length;
  if (count > limits.maxFilesPerRequest) {
    throw new AppError('PAYLOAD_TOO_LARGE', `Warranty request ${requestNo} would hold ${count} files (${existing.length} stored, ${fresh.length} new); the limit is ${limits.maxFilesPerRequest} files per request`);
  }
  const bytes = existing.reduce((sum, row) => sum + Number(row.size_bytes), 0) + fresh.reduce((sum, file) => sum + file.sizeBytes, 0);
  if (bytes > limits.maxRequestFilesBytes) {
    throw new AppError('PAYLOAD_TOO_LARGE', `The files of warranty request ${requestNo} would take ${bytes} bytes; the limit is ${limits.maxRequestFilesBytes} bytes per request`);
  }
}
