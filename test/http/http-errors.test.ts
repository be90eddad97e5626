/**
 * Every HTTP GET / HTTP POST protocol failure of docs/contract.md ("HTTP GET ... and HTTP POST"): status,
 * content type and exact text (message + CRLF), and the JSON answer of a business failure.
 */
import zlib from 'node:zlib';
import request from 'supertest';
import { startTestApp, suiteApp, type TestApp } from '../support/app';
import { rawRequest } from '../support/raw-http';
import { MAIN_PATH, SYNC_PATH } from '../support/interface-table';

let t: TestApp;
suiteApp(
  {
    env: { MAX_REQUEST_BYTES: '2048', MAX_FILE_BYTES: '16', MAX_FILES_PER_REQUEST: '2', MAX_REQUEST_FILES_BYTES: '24' },
  },
  (started) => (t = started),
);

function expectPlain500(res: request.Response, message: string): void {
  expect(res.status).toBe(500);
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(res.text).toBe(`${message}\r\n`);
}

describe('unknown and wrongly cased method names', () => {
  it.each(['GET', 'POST'])('%s of an unknown operation', async (method) => {
    const res = await request(t.app)[method === 'GET' ? 'get' : 'post'](`${MAIN_PATH}/NoSuchOp`);
    expectPlain500(res, 'NoSuchOp Web Service method name is not valid.');
  });

  it('a main-service operation at the sync service is unknown there', async () => {
    expectPlain500(
      await request(t.app).get(`${SYNC_PATH}/getPCNList`),
      'getPCNList Web Service method name is not valid.',
    );
  });

  it.each([
    [MAIN_PATH, 'getpcnlist', 'getPCNList'],
    [MAIN_PATH, 'GETSALESSUMMARYRECORDS', 'getSalesSummaryRecords'],
    [SYNC_PATH, 'helloworld', 'HelloWorld'],
  ])('%s/%s names the right spelling, with the double spaces of ASMX', async (path, got, actual) => {
    for (const res of [
      await request(t.app).get(`${path}/${got}`),
      await request(t.app).post(`${path}/${got}`).type('form').send(''),
    ]) {
      expectPlain500(
        res,
        `Invalid method name '${got}',  method names are case sensitive.   The method name '${actual}' with the same name but different casing was found.`,
      );
    }
  });

  it.each([
    [`${MAIN_PATH}/getPCNList/extra`, 'getPCNList/extra'],
    [`${SYNC_PATH}/HelloWorld/`, 'HelloWorld/'],
  ])('extra path info %s is not a method name', async (url, name) => {
    expectPlain500(await request(t.app).get(url), `${name} Web Service method name is not valid.`);
  });

  it('a percent-encoded name is decoded before it is matched', async () => {
    const res = await request(t.app).get(`${SYNC_PATH}/Hello%57orld`);
    expect(res.status).toBe(200);
  });
});

describe('methods other than GET and POST', () => {
  it.each(['put', 'delete', 'patch'] as const)('%s on an operation is unrecognized', async (method) => {
    const res = await request(t.app)[method](`${MAIN_PATH}/getPCNList`);
    expectPlain500(res, "Request format is unrecognized for URL unexpectedly ending in '/getPCNList'.");
  });

  it('HEAD on an operation is answered 500 like the other methods', async () => {
    const res = await request(t.app).head(`${MAIN_PATH}/getPCNList`);
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('a bare slash after the .asmx is unrecognized', async () => {
    expectPlain500(
      await request(t.app).get(`${MAIN_PATH}/`),
      "Request format is unrecognized for URL unexpectedly ending in '/'.",
    );
  });
});

describe('HTTP POST body formats', () => {
  it.each([
    ['text/plain', 'SalesOfficer=SO1'],
    ['text/plain; charset=utf-8', 'x'],
    ['application/json', '{"SalesOfficer":"SO1"}'],
    ['multipart/form-data; boundary=xyz', '--xyz--\r\n'],
    ['text/xml; charset=utf-8', '<x/>'],
  ])('%s to an operation with parameters is an invalid request format', async (contentType, body) => {
    const res = await request(t.app).post(`${MAIN_PATH}/getPCNList`).set('Content-Type', contentType).send(body);
    expectPlain500(res, `Request format is invalid: ${contentType}.`);
  });

  it('no Content-Type at all to an operation with parameters', async () => {
    const res = await request(t.app).post(`${MAIN_PATH}/getPCNList`).set('Content-Type', '').send();
    expectPlain500(res, 'Request format is invalid: .');
  });

  it('a body that is not a JSON object, to an operation that takes extra fields', async () => {
    for (const body of ['{"broken"', '[1,2]', '"text"']) {
      const res = await request(t.app)
        .post(`${MAIN_PATH}/CreateWarrantyRequest`)
        .set('Content-Type', 'application/json')
        .send(body);
      expectPlain500(res, 'Request format is invalid: application/json.');
    }
  });

  it('a malformed multipart body', async () => {
    const res = await request(t.app)
      .post(`${MAIN_PATH}/CreateWarrantyRequest`)
      .set('Content-Type', 'multipart/form-data')
      .send('x');
    expectPlain500(res, 'Request format is invalid: multipart/form-data.');
  });
});

describe('body size and encoding', () => {
  it('a body over MAX_REQUEST_BYTES is 413', async () => {
    const res = await request(t.app)
      .post(`${MAIN_PATH}/getPCNList`)
      .type('form')
      .send(`SalesOfficer=${'x'.repeat(3000)}`);
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe('Request body exceeds 2048 bytes.\r\n');
  });

  const gzipForm = (path: string, body: Buffer) =>
    rawRequest(t.app, {
      method: 'POST',
      path,
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Encoding': 'gzip',
        'Content-Length': body.length,
      },
      body,
    });

  it('a gzip body that inflates past the limit is 413', async () => {
    const bomb = zlib.gzipSync(Buffer.from(`SalesOfficer=${'0'.repeat(1024 * 1024)}`));
    expect(bomb.length).toBeLessThan(2048);
    const res = await gzipForm(`${MAIN_PATH}/getPCNList`, bomb);
    expect(res.status).toBe(413);
    expect(res.text).toBe('Request body exceeds 2048 bytes.\r\n');
  });

  it('a broken gzip body is 400', async () => {
    const res = await gzipForm(`${MAIN_PATH}/getPCNList`, Buffer.from('this is not gzip'));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe('Request body is not valid gzip data.\r\n');
  });

  it('a gzip form body is read', async () => {
    const res = await gzipForm(`${SYNC_PATH}/HelloWorld`, zlib.gzipSync(Buffer.from('a=b')));
    expect(res.status).toBe(200);
    expect(res.text).toContain('>Hello World</string>');
  });
});

describe('business failures found by the binding (multipart file limits)', () => {
  const post = () => request(t.app).post(`${MAIN_PATH}/WarrantyRequestFiles`).field('RequestNo', 'WR-1');

  it.each([
    [
      'a file over MAX_FILE_BYTES',
      () => post().attach('Photo', Buffer.alloc(17, 1), 'big.jpg'),
      "Photo: file 'big.jpg' is larger than the limit of 16 bytes per file",
      'Photo',
    ],
    [
      'more files than MAX_FILES_PER_REQUEST',
      () =>
        post()
          .attach('a', Buffer.alloc(1), 'a.jpg')
          .attach('b', Buffer.alloc(1), 'b.jpg')
          .attach('c', Buffer.alloc(1), 'c.jpg'),
      'At most 2 files may be sent in one request',
      'files',
    ],
    [
      'files together over MAX_REQUEST_FILES_BYTES',
      () => post().attach('a', Buffer.alloc(16, 1), 'a.jpg').attach('b', Buffer.alloc(16, 2), 'b.jpg'),
      'The files of one request may hold at most 24 bytes',
      'files',
    ],
  ])('%s is PAYLOAD_TOO_LARGE, answered 200 with the failure envelope', async (_label, send, message, field) => {
    const res = await send();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.text)).toEqual({
      Success: false,
      Code: 'PAYLOAD_TOO_LARGE',
      Message: message,
      Field: field,
      Data: null,
    });
  });

  it('files sent to an operation that takes none are ignored, whatever their size', async () => {
    const res = await request(t.app)
      .post(`${MAIN_PATH}/CreateWarrantyRequest`)
      .field('Complaint', '')
      .attach('file', Buffer.alloc(100, 1), 'big.jpg');
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toMatchObject({ Success: true, Data: null });
  });
});

describe('an unexpected failure', () => {
  it('is 500 with a generic text and no internals', async () => {
    const broken = await startTestApp();
    await broken.engine.close();
    const res = await request(broken.app).get(`${MAIN_PATH}/getPCNList`);
    expectPlain500(res, 'Server was unable to process request.');
  });
});
