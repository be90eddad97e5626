import { inflateSync } from 'node:zlib';
import { samplePdf, samplePng, sampleJpeg } from './sample-files';

/** Splits a JPEG into its marker segments up to the scan, checking every length on the way. */
function jpegMarkers(bytes: Buffer): number[] {
  expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
  const markers: number[] = [];
  let at = 2;
  while (at < bytes.length) {
    expect(bytes[at]).toBe(0xff);
    const marker = bytes[at + 1];
    markers.push(marker);
    const length = bytes.readUInt16BE(at + 2);
    at += 2 + length;
    if (marker === 0xda) break;
  }
  expect(bytes.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
  return markers;
}

describe('sample attachment files', () => {
  it('builds a PNG whose chunks carry correct lengths and whose pixels inflate to 16x16 RGB', () => {
    const png = samplePng(99);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const chunks: Record<string, Buffer> = {};
    for (let at = 8; at < png.length;) {
      const length = png.readUInt32BE(at);
      chunks[png.toString('latin1', at + 4, at + 8)] = png.subarray(at + 8, at + 8 + length);
      at += 12 + length;
    }
    expect(Object.keys(chunks)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect([chunks.IHDR.readUInt32BE(0), chunks.IHDR.readUInt32BE(4), chunks.IHDR[8], chunks.IHDR[9]]).toEqual([
      16, 16, 8, 2,
    ]);
    const pixels = inflateSync(chunks.IDAT);
    expect(pixels.length).toBe(16 * (1 + 16 * 3));
    expect(pixels[1]).toBe(99);
    expect(samplePng(100).equals(png)).toBe(false);
  });

  it('builds a baseline JPEG: SOI, JFIF, tables, one 8x8 frame, a scan and EOI', () => {
    const jpeg = sampleJpeg(40);
    expect(jpegMarkers(jpeg)).toEqual([0xe0, 0xdb, 0xc0, 0xc4, 0xc4, 0xda]);
    const frame = jpeg.subarray(jpeg.indexOf(Buffer.from([0xff, 0xc0])));
    expect([frame.readUInt16BE(5), frame.readUInt16BE(7)]).toEqual([8, 8]);
    // Grey 40 is DC -88: category 7 (0111), value bits 0100111, end of block 0, padded with ones.
    expect(jpeg.subarray(-4, -2)).toEqual(Buffer.from([0x74, 0xef]));
    expect(sampleJpeg(41).equals(jpeg)).toBe(false);
  });

  it('builds a PDF whose cross-reference table points at its objects', () => {
    const pdf = samplePdf('Invoice copy INV0000001 (for WR0000001)');
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-1.4\n')).toBe(true);
    expect(text.endsWith('%%EOF\n')).toBe(true);
    const startxref = Number(/startxref\n(\d+)\n/.exec(text)![1]);
    expect(text.slice(startxref, startxref + 4)).toBe('xref');
    const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, i) => expect(text.slice(offset, offset + 8)).toBe(`${i + 1} 0 obj\n`));
    expect(text).toContain('(Invoice copy INV0000001 for WR0000001) Tj');
  });
});
