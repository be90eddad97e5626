/**
 * The writes end to end: operations whose contract lists no parameters take their input as extra named
 * fields (docs/behaviour.md), and every way a client can send them must reach the same real operation
 * and leave the same rows behind. SOAP child elements, the query string and a form are the
 * conformance suite's (test/conformance/writes.test.ts); here are the other bodies of HTTP POST (a JSON
 * object, multipart parts with files, base64 files over SOAP) and sequences across bindings. Each case
 * is read back from the database, not from the answer alone.
 */
import { createHash } from 'node:crypto';
import type { App } from '../../src/app';
import request from 'supertest';
import { suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { storedWarrantyRequests, warrantyFields } from '../support/fixture';
import { envelope, MAIN_PATH, operationElement, postSoap, type Version } from '../soap/soap-support';

/** A valid 1x1 PNG: signature, IHDR, IDAT, IEND. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const NS = 'http://tempuri.org/';

/** The operation with the fields as child elements, posted as generated clients do (SOAPAction for 1.1 only). */
function soapCall(app: App, version: Version, operation: string, fields: Record<string, string>) {
  const body = envelope(version, operationElement(operation, NS, fields));
  return postSoap(app, MAIN_PATH, version, body, { action: version === '1.1' ? `"${NS}${operation}"` : undefined });
}

describe.each(ENGINES)('writes through every binding: %s', (kind) => {
  let t: TestApp;
  suiteApp({ kind, masterData: true }, (started) => (t = started));

  const stored = (clientRequestId: string) => storedWarrantyRequests(t.engine.db, clientRequestId);

  const expectStoredRequest = async (clientRequestId: string) => {
    const rows = await stored(clientRequestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      customer_code: 'C001',
      sales_officer_id: 'SO01',
      product_code: 'P002',
      serial_no: `SN-${clientRequestId}`,
      purchase_date: '2026-01-15',
      status: 'SUBMITTED',
    });
    return rows[0];
  };

  it('HTTP POST: a JSON object body and multipart parts each create a request', async () => {
    const json = await request(t.app).post(`${MAIN_PATH}/CreateWarrantyRequest`).send(warrantyFields('json-1'));
    expect(json.body).toMatchObject({ Success: true });
    await expectStoredRequest('json-1');

    let multipart = request(t.app).post(`${MAIN_PATH}/CreateWarrantyRequest`);
    for (const [name, value] of Object.entries(warrantyFields('multipart-1'))) multipart = multipart.field(name, value);
    expect((await multipart).body).toMatchObject({ Success: true });
    await expectStoredRequest('multipart-1');
  });

  it('a retry through another binding returns the first request and stores nothing new; the key with another request is CONFLICT', async () => {
    const first = await request(t.app).get(`${MAIN_PATH}/CreateWarrantyRequest`).query(warrantyFields('retry-1'));
    const again = await request(t.app).post(`${MAIN_PATH}/CreateWarrantyRequest`).send(warrantyFields('retry-1'));
    expect(again.body.Data.RequestNo).toBe(first.body.Data.RequestNo);
    expect(again.body.Data.Complaint).toBe('Motor hums but does not start');
    const changed = await request(t.app)
      .post(`${MAIN_PATH}/CreateWarrantyRequest`)
      .send({ ...warrantyFields('retry-1'), Complaint: 'changed' });
    expect(changed.body).toMatchObject({ Success: false, Code: 'CONFLICT', Field: 'ClientRequestId' });
    expect(await stored('retry-1')).toHaveLength(1);
  });

  it('files: multipart parts over HTTP POST and base64 over SOAP are stored with their hash, once', async () => {
    const created = await request(t.app).post(`${MAIN_PATH}/CreateWarrantyRequest`).send(warrantyFields('files-1'));
    const requestNo: string = created.body.Data.RequestNo;

    const upload = await request(t.app)
      .post(`${MAIN_PATH}/WarrantyRequestFiles`)
      .field('RequestNo', requestNo)
      .attach('photo', PNG, { filename: 'motor.png', contentType: 'application/octet-stream' })
      .attach('again', PNG, { filename: 'same-bytes.png', contentType: 'image/png' });
    expect(upload.body).toMatchObject({ Success: true, Count: 2 });
    expect(upload.body.Data[0]).toMatchObject({ ContentType: 'image/png', SizeBytes: PNG.length, Sha256: sha256(PNG) });
    expect(upload.body.Data[1].FileId).toBe(upload.body.Data[0].FileId);

    const soap = await soapCall(t.app, '1.1', 'WarrantyRequestFiles', {
      RequestNo: requestNo,
      FileName: 'invoice.pdf',
      FileContent: PDF.toString('base64'),
    });
    expect(soap.status).toBe(200);

    const files = await t.engine.db
      .selectFrom('warranty_files')
      .selectAll()
      .where('request_no', '=', requestNo)
      .orderBy('file_id')
      .execute();
    expect(files.map((f) => [f.content_type, f.sha256, f.size_bytes])).toEqual([
      ['image/png', sha256(PNG), PNG.length],
      ['application/pdf', sha256(PDF), PDF.length],
    ]);
    expect(Buffer.compare(Buffer.from(files[1].content), PDF)).toBe(0);

    const listed = await request(t.app).get(`${MAIN_PATH}/WarrantyRequestFiles`).query({ RequestNo: requestNo });
    expect(listed.body.Data.map((f: { Sha256: string }) => f.Sha256)).toEqual([sha256(PNG), sha256(PDF)]);
  });

  it('state changes through the bindings: transport details, then a sync sees every request once', async () => {
    const created = await request(t.app)
      .post(`${MAIN_PATH}/CreateWarrantyRequest`)
      .type('form')
      .send(warrantyFields('ship-1'));
    const requestNo: string = created.body.Data.RequestNo;
    const shipped = await soapCall(t.app, '1.2', 'UpdateWarrantyTransportDetails', {
      RequestNo: requestNo,
      Transporter: 'Blue Dart',
      LRNo: 'LR-991',
      LRDate: '2026-02-01',
    });
    expect(shipped.status).toBe(200);
    const row = await t.engine.db
      .selectFrom('warranty_requests')
      .selectAll()
      .where('request_no', '=', requestNo)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      status: 'DISPATCHED',
      transporter: 'Blue Dart',
      lr_no: 'LR-991',
      lr_date: '2026-02-01',
      version: 2,
    });

    const seen: string[] = [];
    let since = '';
    for (let page = 0; page < 20; page++) {
      const res = await request(t.app).get(`${MAIN_PATH}/SyncWarrantyReqList`).query({ Since: since, PageSize: '3' });
      seen.push(...res.body.Data.Requests.map((r: { RequestNo: string }) => r.RequestNo));
      since = res.body.Data.NextSince;
      if (!res.body.Data.HasMore) break;
    }
    const all = await t.engine.db.selectFrom('warranty_requests').select('request_no').orderBy('change_seq').execute();
    expect(seen).toEqual(all.map((r) => r.request_no));
  });
});
