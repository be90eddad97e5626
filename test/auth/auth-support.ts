/**
 * The real app with authentication settings (AUTH_MODE, RATE_LIMIT_*) on a fresh database holding the
 * master data of test/support/fixture.ts, and one call helper that speaks each of the four bindings.
 * Credentials are stored with the same functions the users CLI uses (src/auth/credential-store.ts).
 */
import request from 'supertest';
import type { Express } from 'express';
import { generateApiKey, hashSecret } from '../../src/auth/api-key';
import { insertKey, storePassword } from '../../src/auth/credential-store';
import { hashPassword } from '../../src/auth/password-hash';
import type { EngineKind } from '../../src/db/engine';
import { startTestApp, type TestApp } from '../support/app';
import { insertMasterData, USERS } from '../support/fixture';
import { exchange, type BindingName } from '../conformance/drivers';

export const NS = 'http://tempuri.org/';
export const MAIN = '/API/MobileAppWebService.asmx';
export const SYNC = '/API/SyncCustomers.asmx';

export { BINDINGS, type BindingName } from '../conformance/drivers';

export async function startAuthApp(kind: EngineKind, env: Record<string, string>): Promise<TestApp> {
  const app = await startTestApp({ kind, env });
  await insertMasterData(app.engine.db);
  return app;
}

export async function givePassword(app: TestApp, username: string, password: string): Promise<void> {
  const user = USERS.find((u) => u.username === username)!;
  await storePassword(app.engine.db, user.id, await hashPassword(password), new Date().toISOString());
}

export async function giveKey(app: TestApp, username: string): Promise<{ key: string; keyId: string }> {
  const user = USERS.find((u) => u.username === username)!;
  const key = generateApiKey();
  await insertKey(app.engine.db, { key_id: key.keyId, user_id: user.id, secret_hash: hashSecret(key.secret), label: null, created_at: new Date().toISOString() });
  return { key: key.key, keyId: key.keyId };
}

export function basic(username: string, password: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}` };
}

/** One call of `operation` at `path` through `binding`, with the given parameters and headers. */
export function call(
  app: Express,
  binding: BindingName,
  path: string,
  operation: string,
  values: Record<string, string> = {},
  headers: Record<string, string> = {},
) {
  return exchange(app, binding, path, operation, values, headers);
}

/** The fault document the SOAP bindings answer with a refusal (faults.ts). */
export function clientFault(binding: 'soap11' | 'soap12', message: string): string {
  const start = '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="';
  const xsi = '" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">';
  if (binding === 'soap11') {
    return `${start}http://schemas.xmlsoap.org/soap/envelope/${xsi}<soap:Body><soap:Fault><faultcode>soap:Client</faultcode>` +
      `<faultstring>${message}</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>`;
  }
  return `${start}http://www.w3.org/2003/05/soap-envelope${xsi}<soap:Body><soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code>` +
    `<soap:Reason><soap:Text xml:lang="en">${message}</soap:Text></soap:Reason><soap:Detail /></soap:Fault></soap:Body></soap:Envelope>`;
}

/** What a binding answers for a refusal with `message`: the fault above, or text/plain with CRLF. */
export function expectRefusal(res: request.Response, binding: BindingName, status: number, message: string): void {
  expect(res.status).toBe(status);
  if (binding === 'soap11' || binding === 'soap12') {
    expect(res.headers['content-type']).toBe(binding === 'soap11' ? 'text/xml; charset=utf-8' : 'application/soap+xml; charset=utf-8');
    expect(res.text).toBe(clientFault(binding, message));
  } else {
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe(`${message}\r\n`);
  }
}
