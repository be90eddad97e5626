import type { Engine } from '../db/engine';
import type { DomainSettings, UploadedFile } from '../operations/types';
import { ENGINES, freshEngine } from '../../test/support/engines';
import { fixedClock, runOperation } from '../../test/support/operation';
import { createWarrantyRequest, warrantyRequestFiles } from './operations';
import { failure, insertWarrantyFixture, sample, sha256, validRequest } from './test-fixture';

const CREATED = '2026-06-15T10:00:00.000Z';
const UPLOADED = '2026-06-15T10:05:00.000Z';
const LATER = '2026-06-15T11:00:00.000Z';

function part(fileName: string, content: Buffer, field = 'Photo'): UploadedFile {
  return { field, fileName, declaredType: 'application/octet-stream', content };
}

describe.each(ENGINES)('WarrantyRequestFiles: %s', (kind) => {
  let engine: Engine;
  const upload = (
    fields: Record<string, string>,
    files: UploadedFile[] = [],
    settings: Partial<DomainSettings> = {},
    at = UPLOADED,
  ) => runOperation(warrantyRequestFiles, engine, fields, { files, settings, clock: fixedClock(at) });
  const requestRow = () =>
    engine.db
      .selectFrom('warranty_requests')
      .select(['version', 'change_seq', 'updated_at'])
      .where('request_no', '=', 'WR0000001')
      .executeTakeFirstOrThrow();
  const storedFiles = () => engine.db.selectFrom('warranty_files').selectAll().orderBy('file_id').execute();

  beforeEach(async () => {
    engine = await freshEngine(kind);
    await insertWarrantyFixture(engine.db);
    await runOperation(createWarrantyRequest, engine, validRequest(), { clock: fixedClock(CREATED) });
    await runOperation(createWarrantyRequest, engine, validRequest({ SerialNo: 'SN-2' }), {
      clock: fixedClock(CREATED),
    });
  });

  afterEach(async () => {
    await engine.close();
  });

  it('stores parts and a base64 file in one call and reads the same bytes back', async () => {
    const png = sample.png(1, 300);
    const jpeg = sample.jpeg(2, 500);
    const webp = sample.webp(3, 120);
    const pdf = sample.pdf(4, 2048);
    const result = await upload(
      { RequestNo: 'WR0000001', FileName: 'invoice.pdf', FileContent: pdf.toString('base64') },
      [part('front.png', png), part('back.jpg', jpeg, 'Photo2'), part('label.webp', webp)],
    );
    const expected = [
      {
        FileId: 'WF0000001',
        FileName: 'front.png',
        ContentType: 'image/png',
        SizeBytes: 300,
        Sha256: sha256(png),
        CreatedAt: UPLOADED,
      },
      {
        FileId: 'WF0000002',
        FileName: 'back.jpg',
        ContentType: 'image/jpeg',
        SizeBytes: 500,
        Sha256: sha256(jpeg),
        CreatedAt: UPLOADED,
      },
      {
        FileId: 'WF0000003',
        FileName: 'label.webp',
        ContentType: 'image/webp',
        SizeBytes: 120,
        Sha256: sha256(webp),
        CreatedAt: UPLOADED,
      },
      {
        FileId: 'WF0000004',
        FileName: 'invoice.pdf',
        ContentType: 'application/pdf',
        SizeBytes: 2048,
        Sha256: sha256(pdf),
        CreatedAt: UPLOADED,
      },
    ];
    expect(result.data).toEqual(expected);
    expect(result.message).toBe('4 file(s) stored for warranty request WR0000001.');

    const rows = await storedFiles();
    expect(rows.map((r) => r.request_no)).toEqual(['WR0000001', 'WR0000001', 'WR0000001', 'WR0000001']);
    const bytes = [png, jpeg, webp, pdf];
    rows.forEach((r, i) => {
      expect(Buffer.isBuffer(r.content)).toBe(true);
      expect(Buffer.compare(r.content, bytes[i])).toBe(0);
      expect(r.sha256).toBe(sha256(bytes[i]));
    });
    // One new version and change_seq for the whole call (2 creates took 1 and 2).
    expect(await requestRow()).toEqual({ version: 2, change_seq: 3, updated_at: UPLOADED });
  });

  it('with RequestNo and no file lists the files without content, oldest first', async () => {
    await upload({ RequestNo: 'WR0000001' }, [part('a.png', sample.png(1)), part('b.pdf', sample.pdf(2))]);
    await upload({ RequestNo: 'WR0000002' }, [part('other.jpg', sample.jpeg(3))]);
    const listed = await upload({ RequestNo: 'wr0000001' });
    expect(listed.data).toEqual([
      {
        FileId: 'WF0000001',
        FileName: 'a.png',
        ContentType: 'image/png',
        SizeBytes: 64,
        Sha256: sha256(sample.png(1)),
        CreatedAt: UPLOADED,
      },
      {
        FileId: 'WF0000002',
        FileName: 'b.pdf',
        ContentType: 'application/pdf',
        SizeBytes: 64,
        Sha256: sha256(sample.pdf(2)),
        CreatedAt: UPLOADED,
      },
    ]);
    expect(await upload({ RequestNo: 'WR0000002' })).toMatchObject({
      data: [{ FileId: 'WF0000003', FileName: 'other.jpg' }],
    });
  });

  it('a request without files lists nothing', async () => {
    expect((await upload({ RequestNo: 'WR0000001' })).data).toEqual([]);
  });

  it('the same content again is stored once and answers with the stored file; nothing changes', async () => {
    const png = sample.png(7);
    await upload({ RequestNo: 'WR0000001' }, [part('first.png', png)]);
    const before = await requestRow();
    const again = await upload(
      { RequestNo: 'WR0000001', FileName: 'renamed.png', FileContent: png.toString('base64') },
      [],
      {},
      LATER,
    );
    expect(again.data).toEqual([
      {
        FileId: 'WF0000001',
        FileName: 'first.png',
        ContentType: 'image/png',
        SizeBytes: 64,
        Sha256: sha256(png),
        CreatedAt: UPLOADED,
      },
    ]);
    expect(again.message).toBe('0 file(s) stored for warranty request WR0000001; 1 already stored.');
    expect(await storedFiles()).toHaveLength(1);
    expect(await requestRow()).toEqual(before);
  });

  it('the same content twice in one call is stored once; both answer with that file', async () => {
    const pdf = sample.pdf(5);
    const result = await upload({ RequestNo: 'WR0000001' }, [
      part('one.pdf', pdf),
      part('jpeg.jpg', sample.jpeg(5)),
      part('two.pdf', pdf),
    ]);
    expect((result.data as Array<{ FileId: string; FileName: string }>).map((f) => [f.FileId, f.FileName])).toEqual([
      ['WF0000001', 'one.pdf'],
      ['WF0000002', 'jpeg.jpg'],
      ['WF0000001', 'one.pdf'],
    ]);
    expect(await storedFiles()).toHaveLength(2);
  });

  it('the same content may belong to two requests', async () => {
    const png = sample.png(9);
    await upload({ RequestNo: 'WR0000001' }, [part('x.png', png)]);
    const second = await upload({ RequestNo: 'WR0000002' }, [part('x.png', png)]);
    expect(second.data).toMatchObject([{ FileId: 'WF0000002' }]);
  });

  it('parallel uploads of the same content store it once', async () => {
    const jpeg = sample.jpeg(11, 1000);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => upload({ RequestNo: 'WR0000001' }, [part(`copy-${i}.jpg`, jpeg)])),
    );
    const rows = await storedFiles();
    expect(rows).toHaveLength(1);
    for (const answer of answers)
      expect(answer.data).toMatchObject([{ FileId: rows[0].file_id, Sha256: sha256(jpeg) }]);
    expect(await requestRow()).toMatchObject({ version: 2 });
  });

  describe('limits', () => {
    it('a file larger than maxFileBytes is PAYLOAD_TOO_LARGE naming the limit; one of exactly the limit is stored', async () => {
      const err = await failure(
        upload({ RequestNo: 'WR0000001' }, [part('big.png', sample.png(1, 1001))], { maxFileBytes: 1000 }),
      );
      expect(err).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        field: 'Photo',
        message: "Photo: file 'big.png' is larger than the limit of 1000 bytes per file",
      });
      const ok = await upload({ RequestNo: 'WR0000001' }, [part('fits.png', sample.png(1, 1000))], {
        maxFileBytes: 1000,
      });
      expect(ok.data).toMatchObject([{ SizeBytes: 1000 }]);
    });

    it('more files than maxFilesPerRequest (stored plus new) is PAYLOAD_TOO_LARGE, and nothing of the call is stored', async () => {
      const limit = { maxFilesPerRequest: 3 };
      await upload({ RequestNo: 'WR0000001' }, [part('1.png', sample.png(1)), part('2.png', sample.png(2))], limit);
      const err = await failure(
        upload({ RequestNo: 'WR0000001' }, [part('3.png', sample.png(3)), part('4.png', sample.png(4))], limit),
      );
      expect(err).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      expect(err.message).toBe(
        'Warranty request WR0000001 would hold 4 files (2 stored, 2 new); the limit is 3 files per request',
      );
      expect(await storedFiles()).toHaveLength(2);
      // A duplicate does not count; the third distinct file fits.
      const ok = await upload(
        { RequestNo: 'WR0000001' },
        [part('1 again.png', sample.png(1)), part('3.png', sample.png(3))],
        limit,
      );
      expect(ok.data).toMatchObject([{ FileId: 'WF0000001' }, { FileId: 'WF0000003' }]);
    });

    it('a total above maxRequestFilesBytes (stored plus new) is PAYLOAD_TOO_LARGE naming the limit', async () => {
      const limit = { maxRequestFilesBytes: 1000 };
      await upload({ RequestNo: 'WR0000001' }, [part('a.pdf', sample.pdf(1, 600))], limit);
      const err = await failure(upload({ RequestNo: 'WR0000001' }, [part('b.pdf', sample.pdf(2, 401))], limit));
      expect(err).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The files of warranty request WR0000001 would take 1001 bytes; the limit is 1000 bytes per request',
      });
      const ok = await upload({ RequestNo: 'WR0000001' }, [part('b.pdf', sample.pdf(2, 400))], limit);
      expect(ok.data).toMatchObject([{ SizeBytes: 400 }]);
      expect(await storedFiles()).toHaveLength(2);
    });

    it('one refused file refuses the whole call', async () => {
      const err = await failure(
        upload({ RequestNo: 'WR0000001' }, [part('ok.png', sample.png(1)), part('anim.gif', sample.gif(1))]),
      );
      expect(err).toMatchObject({
        code: 'UNSUPPORTED_MEDIA',
        field: 'Photo',
        message: "Photo: file 'anim.gif' is not a JPEG, PNG, WebP or PDF file",
      });
      expect(await storedFiles()).toEqual([]);
      expect(await requestRow()).toMatchObject({ version: 1, change_seq: 1 });
    });
  });

  describe('refusals', () => {
    it('the type comes from the bytes: text named .png is UNSUPPORTED_MEDIA', async () => {
      const err = await failure(
        upload({
          RequestNo: 'WR0000001',
          FileName: 'photo.png',
          FileContent: Buffer.from('just text').toString('base64'),
        }),
      );
      expect(err).toMatchObject({
        code: 'UNSUPPORTED_MEDIA',
        field: 'FileContent',
        message: "FileContent: file 'photo.png' is not a JPEG, PNG, WebP or PDF file",
      });
    });

    it('an empty file is INVALID_PARAMETER', async () => {
      const err = await failure(upload({ RequestNo: 'WR0000001' }, [part('empty.jpg', Buffer.alloc(0))]));
      expect(err).toMatchObject({
        code: 'INVALID_PARAMETER',
        field: 'Photo',
        message: "Photo: file 'empty.jpg' is empty",
      });
    });

    it('invalid base64 is INVALID_PARAMETER FileContent', async () => {
      const err = await failure(
        upload({ RequestNo: 'WR0000001', FileName: 'x.png', FileContent: 'this is not base64!' }),
      );
      expect(err).toMatchObject({ code: 'INVALID_PARAMETER', field: 'FileContent' });
      expect(err.message.startsWith('FileContent: is not valid base64')).toBe(true);
    });

    it('files without RequestNo are MISSING_PARAMETER RequestNo', async () => {
      expect(await failure(upload({}, [part('a.png', sample.png())]))).toMatchObject({
        code: 'MISSING_PARAMETER',
        field: 'RequestNo',
      });
      expect(await failure(upload({ FileContent: sample.png().toString('base64') }))).toMatchObject({
        code: 'MISSING_PARAMETER',
        field: 'RequestNo',
      });
      expect(await failure(upload({ FileName: 'a.png' }))).toMatchObject({
        code: 'MISSING_PARAMETER',
        field: 'RequestNo',
      });
    });

    it('FileName without FileContent or a part is MISSING_PARAMETER FileContent', async () => {
      expect(await failure(upload({ RequestNo: 'WR0000001', FileName: 'a.png' }))).toMatchObject({
        code: 'MISSING_PARAMETER',
        field: 'FileContent',
      });
    });

    it('an unknown RequestNo is NOT_FOUND, for an upload and for a listing', async () => {
      for (const files of [[part('a.png', sample.png())], []]) {
        const err = await failure(upload({ RequestNo: 'WR0000404' }, files));
        expect(err).toMatchObject({
          code: 'NOT_FOUND',
          field: 'RequestNo',
          message: "RequestNo: warranty request 'WR0000404' does not exist",
        });
      }
      expect(await storedFiles()).toEqual([]);
    });

    it('with no input at all it lists nothing and changes nothing', async () => {
      expect((await upload({})).data).toEqual([]);
    });
  });

  it('file names are sanitised; a file without a name is named after its type', async () => {
    const result = await upload({ RequestNo: 'WR0000001', FileContent: sample.webp(2).toString('base64') }, [
      part('../../etc/passwd.png', sample.png(1)),
      part('x'.repeat(250) + '.jpg', sample.jpeg(1)),
    ]);
    expect((result.data as Array<{ FileName: string }>).map((f) => f.FileName)).toEqual([
      'passwd.png',
      'x'.repeat(196) + '.jpg',
      'file.webp',
    ]);
    expect((await storedFiles()).map((r) => r.file_name)).toEqual([
      'passwd.png',
      'x'.repeat(196) + '.jpg',
      'file.webp',
    ]);
  });
});
