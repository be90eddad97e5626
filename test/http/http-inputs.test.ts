/**
 * How HTTP GET and HTTP POST hand values to the operations (docs/contract.md: GET reads only the query
 * string, POST only the body; docs/behaviour.md: operations without contract parameters take extra
 * fields from a form, multipart parts or a JSON object body). The conventions every binding shares
 * (names in any case, the first occurrence, unknown names) are in test/conformance.
 * Observed through real operations on an empty database: FillAreaManagers answers NOT_FOUND for an
 * unknown user and all area managers for none; ActivityReportAndComplaints refuses an impossible date.
 */
import request from 'supertest';
import { suiteApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { MAIN_PATH } from '../support/interface-table';

describe.each(ENGINES)('HTTP inputs: %s', (kind) => {
  let t: TestApp;
  suiteApp({ kind }, (started) => (t = started));

  const body = (res: request.Response) => {
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    return JSON.parse(res.text);
  };

  const AREA_MANAGERS = `${MAIN_PATH}/FillAreaManagers`;
  const ACTIVITY_REPORT = `${MAIN_PATH}/ActivityReportAndComplaints`;

  describe('contract parameters', () => {
    // Case-insensitive names, the first occurrence and unknown names hold for every binding: test/conformance.
    it('a business failure is the JSON envelope Success, Code, Message, Field, Data, in that order', async () => {
      const answer = body(await request(t.app).get(`${AREA_MANAGERS}?username=nobody`));
      expect(answer).toMatchObject({ Success: false, Code: 'NOT_FOUND', Data: null });
      expect(Object.keys(answer)).toEqual(['Success', 'Code', 'Message', 'Field', 'Data']);
    });

    it('POST reads the form body, case-insensitively, with + as a space', async () => {
      const res = await request(t.app).post(AREA_MANAGERS).type('form').send('UserName=no+body');
      expect(body(res)).toMatchObject({ Success: false, Code: 'NOT_FOUND' });
    });

    it('POST ignores the query string and GET ignores a body', async () => {
      const post = await request(t.app).post(`${AREA_MANAGERS}?username=nobody`).type('form').send('');
      expect(body(post)).toMatchObject({ Success: true, Data: [] });
      const get = await request(t.app).get(AREA_MANAGERS).type('form').send('username=nobody');
      expect(body(get)).toMatchObject({ Success: true, Data: [] });
    });

    it('a form Content-Type with a charset is a form', async () => {
      const res = await request(t.app)
        .post(AREA_MANAGERS)
        .set('Content-Type', 'application/x-www-form-urlencoded; charset=utf-8')
        .send('username=nobody');
      expect(body(res)).toMatchObject({ Success: false, Code: 'NOT_FOUND' });
    });
  });

  describe('extra fields of an operation without contract parameters', () => {
    const impossible = { Success: false, Code: 'INVALID_PARAMETER', Field: 'FromDate', Data: null };

    it('from the query string (GET)', async () => {
      expect(body(await request(t.app).get(`${ACTIVITY_REPORT}?fromdate=31/02/2026`))).toMatchObject(impossible);
    });

    it('from a form (POST)', async () => {
      expect(
        body(await request(t.app).post(ACTIVITY_REPORT).type('form').send('FROMDATE=31%2F02%2F2026')),
      ).toMatchObject(impossible);
    });

    it('from multipart parts (POST)', async () => {
      expect(body(await request(t.app).post(ACTIVITY_REPORT).field('FromDate', '31/02/2026'))).toMatchObject(
        impossible,
      );
    });

    it('from a JSON object body (POST), members matched case-insensitively', async () => {
      const res = await request(t.app)
        .post(ACTIVITY_REPORT)
        .set('Content-Type', 'application/json; charset=utf-8')
        .send('{"fromDate":"31/02/2026","other":[1]}');
      expect(body(res)).toMatchObject(impossible);
    });

    it('a valid JSON body succeeds', async () => {
      const res = await request(t.app).post(ACTIVITY_REPORT).send({ FromDate: '2026-01-01', ToDate: '2026-01-31' });
      expect(body(res)).toMatchObject({ Success: true, Message: '' });
    });

    it('a body of another type carries no input', async () => {
      const res = await request(t.app)
        .post(ACTIVITY_REPORT)
        .set('Content-Type', 'text/plain')
        .send('FromDate=31/02/2026');
      expect(body(res)).toMatchObject({ Success: true });
    });

    it('a write operation called with only empty fields does nothing and says so', async () => {
      const res = await request(t.app)
        .post(`${MAIN_PATH}/CreateWarrantyRequest`)
        .send({ CustomerCode: '', SerialNo: '' });
      expect(body(res)).toEqual({ Success: true, Message: 'No input was given: nothing was changed.', Data: null });
    });
  });
});
