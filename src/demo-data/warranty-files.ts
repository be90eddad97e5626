/**
 * A handful of warranty requests get attachments (a few small real files with their real
 * size and sha256), so the file listing and download paths have something to show.
 */
import { createHash } from 'node:crypto';
import type { WarrantyFilesTable } from '../db/schema';
import type { DocumentNumbers } from './batch';
import type { WarrantyRequest } from './model';
import { samplePdf, samplePng, sampleJpeg } from './sample-files';

const REQUESTS_WITH_FILES = 8;

export function sampleWarrantyFiles(requests: WarrantyRequest[], numbers: DocumentNumbers): WarrantyFilesTable[] {
  const step = Math.max(1, Math.floor(requests.length / REQUESTS_WITH_FILES));
  const rows: WarrantyFilesTable[] = [];
  for (let i = 0, picked = 0; i < requests.length && picked < REQUESTS_WITH_FILES; i += step, picked++) {
    const request = requests[i];
    const files: [string, string, Buffer][] = [
      ['photo_1.png', 'image/png', samplePng((picked * 37) % 256)],
      ['rating_plate.jpg', 'image/jpeg', sampleJpeg(40 + picked * 20)],
    ];
    if (picked % 2 === 0) {
      files.push(['invoice_copy.pdf', 'application/pdf', samplePdf(`Invoice copy ${request.invoice?.no ?? 'not available'} for ${request.no}`)]);
    }
    files.forEach(([fileName, contentType, content], k) => {
      rows.push({
        file_id: numbers.next('warrantyFile'),
        request_no: request.no,
        file_name: fileName,
        content_type: contentType,
        size_bytes: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
        content,
        created_at: new Date(Date.parse(request.createdAt) + (k + 1) * 60_000).toISOString(),
      });
    });
  }
  return rows;
}
