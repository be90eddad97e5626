import { AppError } from '../errors';
import { checkFile, decodeBase64, sanitiseFileName, sniff } from './file-content';
import { sample, sha256 } from './test-fixture';

describe('warranty file content', () => {
  it('sniffs the four accepted types from the bytes alone', () => {
    expect(sniff(sample.jpeg())?.contentType).toBe('image/jpeg');
    expect(sniff(sample.png())?.contentType).toBe('image/png');
    expect(sniff(sample.webp())?.contentType).toBe('image/webp');
    expect(sniff(sample.pdf())?.contentType).toBe('application/pdf');
    expect(sniff(sample.gif())).toBeUndefined();
    expect(sniff(Buffer.from('RIFF....WAVEfmt '))).toBeUndefined();
    expect(sniff(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeUndefined();
    expect(sniff(Buffer.from('%PDF'))).toBeUndefined();
  });

  it('checks a file: hash, size, sniffed type, and a name when none is given', () => {
    const bytes = sample.png(3, 100);
    expect(checkFile({ field: 'Photo', fileName: 'C:\\Users\\me\\shot.jpeg', content: bytes }, 100)).toEqual({
      field: 'Photo',
      fileName: 'shot.jpeg',
      contentType: 'image/png',
      content: bytes,
      sizeBytes: 100,
      sha256: sha256(bytes),
    });
    expect(checkFile({ field: 'FileContent', fileName: '', content: sample.pdf() }, 1000).fileName).toBe('file.pdf');
  });

  it.each([
    ['empty', Buffer.alloc(0), 'INVALID_PARAMETER', "Photo: file 'a.png' is empty"],
    [
      'one byte over the limit',
      sample.png(1, 101),
      'PAYLOAD_TOO_LARGE',
      "Photo: file 'a.png' is larger than the limit of 100 bytes per file",
    ],
    [
      'not an accepted type',
      sample.gif(),
      'UNSUPPORTED_MEDIA',
      "Photo: file 'a.png' is not a JPEG, PNG, WebP or PDF file",
    ],
  ])('refuses a file that is %s', (_, content, code, message) => {
    let error: unknown;
    try {
      checkFile({ field: 'Photo', fileName: 'a.png', content }, 100);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code, field: 'Photo', message });
  });

  it.each([
    ['../../etc/passwd.png', 'passwd.png'],
    ['C:\\photos\\pump.jpg', 'pump.jpg'],
    ['..', ''],
    ['.hidden.pdf', 'hidden.pdf'],
    ['a<b>c:d"e|f?g*h.png', 'abcdefgh.png'],
    ['tab\tand\nnewline.pdf', 'tabandnewline.pdf'],
    ['  spaced name.webp  ', 'spaced name.webp'],
    ['folder/', ''],
  ])('sanitises the file name %j to %j', (name, expected) => {
    expect(sanitiseFileName(name)).toBe(expected);
  });

  it('shortens a long name to 200 characters, keeping the extension', () => {
    expect(sanitiseFileName('a'.repeat(300) + '.png')).toBe('a'.repeat(196) + '.png');
    expect(sanitiseFileName('b'.repeat(250))).toBe('b'.repeat(200));
    expect(sanitiseFileName('c'.repeat(200))).toBe('c'.repeat(200));
    expect(Array.from(sanitiseFileName('📷'.repeat(300) + '.jpg'))).toHaveLength(200);
  });

  it('decodes base64: standard, URL-safe, unpadded, with line breaks, spaces for + or a data: URL prefix', () => {
    const bytes = Buffer.from([0xfb, 0xff, 0xfe, 0x00, 0x10]);
    const standard = bytes.toString('base64');
    expect(standard).toBe('+//+ABA=');
    expect(decodeBase64(standard, 'FileContent')).toEqual(bytes);
    expect(decodeBase64('-__-ABA', 'FileContent')).toEqual(bytes);
    expect(decodeBase64(' +//+\r\nABA= ', 'FileContent')).toEqual(bytes);
    // A form-encoded '+' that arrived as a space.
    expect(decodeBase64('+// ABA=', 'FileContent')).toEqual(bytes);
    expect(decodeBase64(`data:image/png;base64,${standard}`, 'FileContent')).toEqual(bytes);
  });

  it.each(['not base64!', 'QUJD=Q==', 'QUJDR', 'QUJDRA=', '%%%%'])('refuses %j as base64', (value) => {
    expect(() => decodeBase64(value, 'FileContent')).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMETER', field: 'FileContent' }),
    );
  });
});
