/**
 * The real app with authentication settings (AUTH_MODE, RATE_LIMIT_*) on a fresh database holding the
 * master data of test/support/fixture.ts; calls go through the conformance suite's driver (`call`).
 * Credentials are stored with the same functions the users CLI uses (src/auth/credential-store.ts).
 */
import request from 'supertest';
import { generateApiKey, hashSecret } from '../../src/auth/api-key';
import { insertKey, storePassword } from '../../src/auth/credential-store';
import { hashPassword } from '../../src/auth/password-hash';
import type { EngineKind } from '../../src/db/engine';
import { startTestApp, suiteApp, type TestApp } from '../support/app';
import { USERS } from '../support/fixture';
import { refusal, type BindingName } from '../conformance/drivers';
import { faultResponse } from '../soap/soap-support';

export const NS = 'http://tempuri.org/';
export const MAIN = '/API/MobileAppWebService.asmx';
export const SYNC = '/API/SyncCustomers.asmx';

export { BINDINGS, exchange as call, type BindingName } from '../conformance/drivers';

export function startAuthApp(kind: EngineKind, env: Record<string, string>): Promise<TestApp> {
  return startTestApp({ kind, env, masterData: true });
}

/** startAuthApp for the enclosing describe block (suiteApp): `prepare` gives credentials and rows before its tests. */
export function suiteAuthApp(
  kind: EngineKind,
  env: Record<string, string>,
  assign: (app: TestApp) => void,
  prepare?: () => Promise<void>,
): void {
  suiteApp({ kind, env, masterData: true }, assign, prepare);
}

export async function givePassword(app: TestApp, username: string, password: string): Promise<void> {
  const user = USERS.find((u) => u.username === username)!;
  await storePassword(app.engine.db, user.id, await hashPassword(password), new Date().toISOString());
}

export async function giveKey(app: TestApp, username: string): Promise<{ key: string; keyId: string }> {
  const user = USERS.find((u) => u.username === username)!;
  const key = generateApiKey();
  await insertKey(app.engine.db, {
    key_id: key.keyId,
    user_id: user.id,
    secret_hash: hashSecret(key.secret),
    label: null,
    created_at: new Date().toISOString(),
  });
  return { key: key.key, keyId: key.keyId };
}

export function basic(username: string, password: string): Record<string, string> {
  return { Authorization: `Basic ${Buffer.from(`${username}:${password}`, 'utf8').toString('base64')}` };
}

/** The fault document the SOAP bindings answer with a refusal (faults.ts). */
export function clientFault(binding: 'soap11' | 'soap12', message: string): string {
  return binding === 'soap11' ? faultResponse('1.1', 'Client', message) : faultResponse('1.2', 'Sender', message);
}

/** A refusal with this status and message, in the binding's own form (the conformance driver checks it). */
export function expectRefusal(res: request.Response, binding: BindingName, status: number, message: string): void {
  expect(refusal(binding, res)).toEqual({ status, message });
}
