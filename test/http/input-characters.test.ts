/**
 * Invalid UTF-8 and characters XML 1.0 forbids (U+0000-U+0008 and the other C0 controls but tab, LF
 * and CR, lone surrogates, U+FFFE, U+FFFF) are refused as malformed input in every binding and never
 * stored altered (docs/operations.md, "Input limits"): SOAP 1.1 and 1.2 answer 400 with an empty body
 * as for any malformed XML; HTTP GET and POST (form, JSON, multipart) answer INVALID_PARAMETER naming
 * the field, and a JSON body that is not UTF-8 at all 400 text/plain. Each refusal is followed by a
 * look into the database: no warranty request was written. Valid text outside ASCII goes through
 * every binding and is stored exactly.
 */
import type { App } from '../../src/app';
import request from 'supertest';
import { startTestApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { listen } from '../support/listen';
import { send } from './hostile-support';
import { MAIN_PATH, SOAP11_TYPE, SOAP12_TYPE, type Version } from '../soap/soap-support';

const NS = 'http://tempuri.org/';
const CREATE = `${MAIN_PATH}/CreateWarrantyRequest`;

/** CreateWarrantyRequest for the fixture's customer C001 of officer SO01, but for SerialNo. */
function fields(id: string): Record<string, string> {
  return {
    CustomerCode: 'C001',
    SalesOfficer: 'SO01',
    ProductCode: 'P002',
    Complaint: 'No power',
    PurchaseDate: '15/01/2026',
    ClientRequestId: id,
  };
}

/** A SOAP envelope whose SerialNo element holds `serial` as raw bytes (already escaped as XML). */
function soapBytes(version: Version, id: string, serial: Buffer): Buffer {
  const ns =
    version === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
  const children = Object.entries(fields(id))
    .map(([n, v]) => `<${n}>${v}</${n}>`)
    .join('');
  const head = `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body><CreateWarrantyRequest xmlns="${NS}">${children}<SerialNo>`;
  return Buffer.concat([
    Buffer.from(head),
    serial,
    Buffer.from('</SerialNo></CreateWarrantyRequest></soap:Body></soap:Envelope>'),
  ]);
}

function postSoapBytes(app: App, version: Version, body: Buffer, contentType?: string) {
  const req = request(app)
    .post(MAIN_PATH)
    .set('Content-Type', contentType ?? (version === '1.1' ? SOAP11_TYPE : SOAP12_TYPE));
  if (version === '1.1') req.set('SOAPAction', `"${NS}CreateWarrantyRequest"`);
  return req.send(body);
}

/** Raw bytes of a SerialNo, and the same written as XML character references where XML has them. */
const BAD_BYTES: [string, Buffer][] = [
  ['a byte that is not UTF-8 (0xFF)', Buffer.from([0x53, 0xff, 0x4e])],
  ['an overlong encoding (C0 AF)', Buffer.from([0xc0, 0xaf])],
  ['a surrogate encoded in UTF-8 (ED A0 80)', Buffer.from([0xed, 0xa0, 0x80])],
  ['a truncated sequence (E2 82)', Buffer.from([0x41, 0xe2, 0x82])],
  ['U+0000', Buffer.from([0x00])],
  ['U+0001', Buffer.from([0x01])],
  ['U+0008', Buffer.from([0x08])],
  ['U+001F', Buffer.from([0x1f])],
  ['U+FFFE', Buffer.from('\uFFFE', 'utf8')],
  ['U+FFFF', Buffer.from('\uFFFF', 'utf8')],
];

const BAD_REFERENCES = [
  '&#0;',
  '&#x0;',
  '&#1;',
  '&#x8;',
  '&#xB;',
  '&#x1F;',
  '&#xD800;',
  '&#xDFFF;',
  '&#55296;',
  '&#xFFFE;',
  '&#xFFFF;',
  '&#x110000;',
];

/** Percent-encoded SerialNo values for the query string and the form. */
const BAD_ENCODED: [string, string][] = [
  ['%FF', 'not valid UTF-8'],
  ['%C0%AF', 'not valid UTF-8'],
  ['%ED%A0%80', 'not valid UTF-8'],
  ['A%E2%82', 'not valid UTF-8'],
  ['%00', 'U+0000'],
  ['%01', 'U+0001'],
  ['%1F', 'U+001F'],
  ['%EF%BF%BE', 'U+FFFE'],
  ['%EF%BF%BF', 'U+FFFF'],
];

const GOOD = 'Café № 7 ☕ 😀 Ω';

describe.each(ENGINES)('characters no binding may store: %s', (kind) => {
  let t: TestApp;
  let serial = 0;
  const nextId = (binding: string) => `chars-${binding}-${(serial += 1)}`;

  beforeAll(async () => {
    t = await startTestApp({ kind, masterData: true });
  });
  afterAll(() => t.close());

  const storedRows = (id: string) =>
    t.engine.db.selectFrom('warranty_requests').select(['serial_no']).where('client_request_id', '=', id).execute();

  async function expectNothingStored(id: string): Promise<void> {
    expect(await storedRows(id)).toHaveLength(0);
  }

  function expectRefusedField(res: request.Response, detail: string): void {
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Success: false, Code: 'INVALID_PARAMETER', Field: 'SerialNo', Data: null });
    expect(res.body.Message).toContain('SerialNo:');
    expect(res.body.Message).toContain(detail);
  }

  describe.each(['1.1', '1.2'] as const)('SOAP %s: 400, empty, nothing stored', (version) => {
    test.each(BAD_BYTES)('raw bytes: %s', async (_name, bytes) => {
      const id = nextId(`soap${version}`);
      const res = await postSoapBytes(t.app, version, soapBytes(version, id, bytes));
      expect(res.status).toBe(400);
      expect(res.text).toBe('');
      await expectNothingStored(id);
    });

    test.each(BAD_REFERENCES)('character reference %s', async (reference) => {
      const id = nextId(`soap${version}`);
      const res = await postSoapBytes(t.app, version, soapBytes(version, id, Buffer.from(`SN${reference}`)));
      expect(res.status).toBe(400);
      expect(res.text).toBe('');
      await expectNothingStored(id);
    });

    test('a UTF-16 body with a lone surrogate', async () => {
      const id = nextId(`soap${version}`);
      const text = soapBytes(version, id, Buffer.from('SN'))
        .toString('utf8')
        .replace('encoding="utf-8"', 'encoding="utf-16"');
      const at = text.indexOf('SN</SerialNo>');
      const utf16 = Buffer.from(`${text.slice(0, at)}SN\uD800${text.slice(at + 2)}`, 'utf16le');
      const base = version === '1.1' ? 'text/xml' : 'application/soap+xml';
      const res = await postSoapBytes(t.app, version, utf16, `${base}; charset=utf-16le`);
      expect(res.status).toBe(400);
      await expectNothingStored(id);
    });
  });

  describe('HTTP GET and POST form: INVALID_PARAMETER naming the field, nothing stored', () => {
    test.each(BAD_ENCODED)('GET SerialNo=%s', async (encoded, detail) => {
      const id = nextId('get');
      const query = new URLSearchParams(fields(id)).toString();
      expectRefusedField(await request(t.app).get(`${CREATE}?${query}&SerialNo=${encoded}`), detail);
      await expectNothingStored(id);
    });

    test.each(BAD_ENCODED)('POST form SerialNo=%s', async (encoded, detail) => {
      const id = nextId('form');
      const body = `${new URLSearchParams(fields(id)).toString()}&SerialNo=${encoded}`;
      expectRefusedField(await request(t.app).post(CREATE).type('form').send(body), detail);
      await expectNothingStored(id);
    });

    test('a parameter name that is not UTF-8 is refused too', async () => {
      const id = nextId('form');
      const res = await request(t.app)
        .post(CREATE)
        .type('form')
        .send(`${new URLSearchParams(fields(id)).toString()}&S%FF=1`);
      expect(res.body).toMatchObject({ Success: false, Code: 'INVALID_PARAMETER', Field: null });
      await expectNothingStored(id);
    });
  });

  describe('HTTP POST JSON', () => {
    test.each([
      ['\\u0000', 'U+0000'],
      ['\\u0001', 'U+0001'],
      ['\\ud800', 'U+D800'],
      ['x\\udfff', 'U+DFFF'],
      ['\\uFFFE', 'U+FFFE'],
      ['\uFFFF', 'U+FFFF'],
    ])('SerialNo "%s": INVALID_PARAMETER naming the field, nothing stored', async (escaped, detail) => {
      const id = nextId('json');
      const body = JSON.stringify(fields(id)).replace(/}$/, `,"SerialNo":"${escaped}"}`);
      expectRefusedField(await request(t.app).post(CREATE).set('Content-Type', 'application/json').send(body), detail);
      await expectNothingStored(id);
    });

    test('a nested value holding a forbidden character: refused, nothing stored', async () => {
      const id = nextId('json');
      const body = JSON.stringify(fields(id)).replace(/}$/, ',"SerialNo":["ok",{"k":"\\u0002"}]}');
      expectRefusedField(
        await request(t.app).post(CREATE).set('Content-Type', 'application/json').send(body),
        'U+0002',
      );
      await expectNothingStored(id);
    });

    test('a body that is not UTF-8: 400 text/plain, nothing stored', async () => {
      const id = nextId('json');
      const body = Buffer.concat([
        Buffer.from(JSON.stringify(fields(id)).replace(/}$/, ',"SerialNo":"')),
        Buffer.from([0xff]),
        Buffer.from('"}'),
      ]);
      // supertest would send a Buffer with a JSON type as JSON of the Buffer: send the bytes as they are.
      const listening = await listen(t.app);
      const res = await send(listening.baseUrl, {
        method: 'POST',
        path: CREATE,
        headers: { 'Content-Type': 'application/json' },
        body,
      }).finally(() => listening.stop());
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.text).toBe('Request body is not valid UTF-8.\r\n');
      await expectNothingStored(id);
    });
  });

  describe('HTTP POST multipart', () => {
    const boundary = 'chars-boundary';
    function multipart(values: Record<string, string>, serial: Buffer, partHeaders = ''): Buffer {
      const part = (name: string, value: Buffer, extra = '') =>
        Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n${extra}\r\n`),
          value,
          Buffer.from('\r\n'),
        ]);
      const parts = Object.entries(values).map(([n, v]) => part(n, Buffer.from(v)));
      return Buffer.concat([...parts, part('SerialNo', serial, partHeaders), Buffer.from(`--${boundary}--\r\n`)]);
    }
    const post = (body: Buffer) =>
      request(t.app).post(CREATE).set('Content-Type', `multipart/form-data; boundary=${boundary}`).send(body);

    test.each(BAD_BYTES)('SerialNo as raw bytes: %s', async (_name, bytes) => {
      const id = nextId('multipart');
      const res = await post(multipart(fields(id), bytes));
      expect(res.body).toMatchObject({ Success: false, Code: 'INVALID_PARAMETER', Field: 'SerialNo' });
      await expectNothingStored(id);
    });

    test('a file name that is not UTF-8: refused, nothing stored', async () => {
      const id = nextId('multipart');
      const file = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="caf`),
        Buffer.from([0xe9]),
        Buffer.from('.png"\r\nContent-Type: image/png\r\n\r\nPNG\r\n'),
      ]);
      const body = multipart(fields(id), Buffer.from('SN-1'));
      const res = await post(Buffer.concat([file, body]));
      expect(res.body).toMatchObject({ Success: false, Code: 'INVALID_PARAMETER', Field: 'photo' });
      await expectNothingStored(id);
    });

    test('a part that declares charset=utf-8 is checked too', async () => {
      const id = nextId('multipart');
      const res = await post(
        multipart(fields(id), Buffer.from([0x41, 0xff]), 'Content-Type: text/plain; charset=UTF-8\r\n'),
      );
      expect(res.body).toMatchObject({ Success: false, Code: 'INVALID_PARAMETER', Field: 'SerialNo' });
      await expectNothingStored(id);
    });
  });

  describe('valid text outside ASCII is stored exactly, in every binding', () => {
    const expectStored = async (id: string) => expect(await storedRows(id)).toEqual([{ serial_no: GOOD }]);

    test.each(['1.1', '1.2'] as const)('SOAP %s', async (version) => {
      const id = nextId(`good-soap${version}`);
      const res = await postSoapBytes(t.app, version, soapBytes(version, id, Buffer.from(GOOD)));
      expect(res.status).toBe(200);
      await expectStored(id);
    });

    test('a multipart file name in UTF-8 (as browsers send it) is stored as written', async () => {
      const id = nextId('good-file');
      const created = await request(t.app)
        .post(CREATE)
        .send({ ...fields(id), SerialNo: GOOD });
      const png = Buffer.from(
        '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
          '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
        'hex',
      );
      const upload = await request(t.app)
        .post(`${MAIN_PATH}/WarrantyRequestFiles`)
        .field('RequestNo', created.body.Data.RequestNo)
        .attach('photo', png, { filename: 'Café ☕.png', contentType: 'image/png' });
      expect(upload.body).toMatchObject({ Success: true, Count: 1 });
      const stored = await t.engine.db
        .selectFrom('warranty_files')
        .select(['file_name'])
        .where('request_no', '=', created.body.Data.RequestNo)
        .execute();
      expect(stored).toEqual([{ file_name: 'Café ☕.png' }]);
    });

    test('GET, form, JSON and multipart', async () => {
      const get = nextId('good-get');
      expect(
        (
          await request(t.app)
            .get(CREATE)
            .query({ ...fields(get), SerialNo: GOOD })
        ).body,
      ).toMatchObject({ Success: true });
      await expectStored(get);
      const form = nextId('good-form');
      expect(
        (
          await request(t.app)
            .post(CREATE)
            .type('form')
            .send({ ...fields(form), SerialNo: GOOD })
        ).body,
      ).toMatchObject({ Success: true });
      await expectStored(form);
      const json = nextId('good-json');
      expect(
        (
          await request(t.app)
            .post(CREATE)
            .send({ ...fields(json), SerialNo: GOOD })
        ).body,
      ).toMatchObject({ Success: true });
      await expectStored(json);
      const parts = nextId('good-multipart');
      let multipart = request(t.app).post(CREATE);
      for (const [name, value] of Object.entries({ ...fields(parts), SerialNo: GOOD }))
        multipart = multipart.field(name, value);
      expect((await multipart).body).toMatchObject({ Success: true });
      await expectStored(parts);
    });
  });
});
