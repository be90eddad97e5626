/**
 * Small but valid files for the warranty requests' attachments, built in code so the seed needs no
 * binary assets; each request's files differ (colour, grey level, text), and so do their sha256.
 */
import { crc32, deflateSync } from 'node:zlib';

/** A 16x16 RGB PNG: a gradient tinted by `tint` (0-255). */
export function samplePng(tint: number): Buffer {
  const width = 16;
  const height = 16;
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = tint;
      raw[row + 2 + x * 3] = x * 16;
      raw[row + 3 + x * 3] = y * 16;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length, 0);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body), 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * An 8x8 baseline greyscale JPEG of one flat grey level. One block: its DC coefficient and an
 * end-of-block. The Huffman tables are minimal: DC categories 0-11 as 4-bit codes, AC only EOB.
 */
export function sampleJpeg(grey: number): Buffer {
  const quant = 8; // all 64 quantisers; DC = (grey - 128) * 8 / 8
  const dc = Math.max(-127, Math.min(127, grey - 128));
  const category = dc === 0 ? 0 : 32 - Math.clz32(Math.abs(dc));
  let bits = category.toString(2).padStart(4, '0');
  if (category > 0) bits += (dc > 0 ? dc : (dc - 1) & ((1 << category) - 1)).toString(2).padStart(category, '0');
  bits += '0'; // AC: end of block
  // Padded with 1-bits to whole bytes, a zero stuffed after every 0xFF, as the entropy-coded segment requires.
  const scan = bits
    .padEnd(Math.ceil(bits.length / 8) * 8, '1')
    .match(/.{8}/g)!
    .map((byte) => parseInt(byte, 2));
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]),
    segment(0xdb, [0x00, ...new Array<number>(64).fill(quant)]),
    segment(0xc0, [0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]),
    segment(0xc4, [0x00, 0, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
    segment(0xc4, [0x10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00]),
    segment(0xda, [0x01, 0x01, 0x00, 0x00, 0x3f, 0x00]),
    Buffer.from(scan.flatMap((byte) => (byte === 0xff ? [0xff, 0x00] : [byte]))),
    Buffer.from([0xff, 0xd9]),
  ]);
}

function segment(marker: number, body: number[]): Buffer {
  const length = body.length + 2;
  return Buffer.from([0xff, marker, length >> 8, length & 0xff, ...body]);
}

/** A one-page PDF with one line of text, with a correct cross-reference table. */
export function samplePdf(text: string): Buffer {
  const safe = text.replace(/[\\()]/g, '');
  const stream = `BT /F1 12 Tf 24 100 Td (${safe}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 360 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
