/**
 * A failure the soap library catches itself (src/asmx/soap/soap-server.ts, its log hook) is logged
 * once, on the request's log line, with the request id; it used to vanish. The library is made to
 * fail the way a routing bug would: the engine is asked to run an operation its WSDL does not have
 * (the router in front never lets such a request through), so the library fails looking it up.
 */
import express from 'express';
import request from 'supertest';
import { loadServiceDescription } from '../../src/asmx/contract';
import { annotate, annotateUnexpected } from '../../src/request-context/annotation';
import { startSoapEngine } from '../../src/asmx/soap/soap-server';
import { createLogger } from '../../src/ops/logger';
import { requestLogger } from '../../src/ops/request-log';
import { createSyncCustomersService } from '../../src/services/sync-customers';
import { captureLog, SOAP11, soapEnvelope, SYNC } from './ops-support';

describe("the soap library's caught errors", () => {
  it('reach the request log line once, at error level, with the request id', async () => {
    const real = createSyncCustomersService({ namespace: 'http://tempuri.org/' });
    const caught: unknown[] = [];
    const engine = await startSoapEngine(real, loadServiceDescription(real).wsdlTemplate, SYNC, (error, _operation, res) => {
      caught.push(error);
      annotateUnexpected(res, error);
    });
    const log = captureLog();
    const app = express();
    app.use(requestLogger(createLogger({ logLevel: 'info' }, log.destination)));
    app.post(SYNC, (req, res) => {
      annotate(res, { binding: 'soap11', service: real.name, operation: 'HelloWorld' });
      engine.dispatch(req, res, { operation: 'NoSuchOperation', version: '1.1', values: [] });
    });

    const res = await request(app).post(SYNC).set('Content-Type', SOAP11.type).set('X-Request-Id', 'caught-1').send(soapEnvelope(SOAP11, 'HelloWorld'));
    expect(res.status).toBe(500);
    expect(caught).toHaveLength(1);
    expect(caught[0]).toBeInstanceOf(Error);
    const line = await log.find((l) => l.reqId === 'caught-1');
    expect(line).toMatchObject({ level: 'error', outcome: 'server_fault', operation: 'HelloWorld' });
    expect((line.err as { message: string }).message).toBe((caught[0] as Error).message);
    expect(log.lines.filter((l) => l.err !== undefined)).toHaveLength(1);
  });
});
