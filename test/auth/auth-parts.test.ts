/**
 * The parts of src/auth on their own: password hashes, API keys, reading credentials from headers,
 * the verified-password memory, the client address, and the settings.
 */
import type { IncomingMessage } from 'node:http';
import { generateApiKey, hashSecret, parseApiKey, secretMatches } from '../../src/auth/api-key';
import { clientAddress } from '../../src/request-context/client-address';
import { presentedCredentials } from '../../src/auth/credentials';
import { hashPassword, verifyPassword } from '../../src/auth/password-hash';
import { VerifiedPasswords } from '../../src/auth/authenticator';
import { loadSettings } from '../../src/config';
import type { Clock } from '../../src/operations/types';

function clockAt(ms: number): Clock & { ms: number } {
  const clock = { ms, now: () => new Date(clock.ms) };
  return clock;
}

describe('password hashes', () => {
  it('stores scrypt with its parameters and a salt of its own, and verifies only the right password', async () => {
    const [a, b] = await Promise.all([hashPassword('pässword:1'), hashPassword('pässword:1')]);
    expect(a).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('pässword:1', a)).toBe(true);
    // NFC: the same text typed with a combining diaeresis is the same password.
    expect(await verifyPassword('pa\u0308ssword:1', a)).toBe(true);
    expect(await verifyPassword('pässword:2', a)).toBe(false);
  });

  it('treats a malformed or absurd stored hash as no match', async () => {
    for (const stored of [
      '',
      'plain',
      'scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      'scrypt$4194304$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      'bcrypt$x$y$z$a$b',
    ]) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
  });
});

describe('API keys', () => {
  it('generates <key_id>.<secret> that parses back and matches only its own hash', () => {
    const key = generateApiKey();
    expect(parseApiKey(` ${key.key} `)).toEqual({ keyId: key.keyId, secret: key.secret });
    expect(secretMatches(key.secret, hashSecret(key.secret))).toBe(true);
    expect(secretMatches(generateApiKey().secret, hashSecret(key.secret))).toBe(false);
    expect(secretMatches(key.secret, 'abc')).toBe(false);
  });

  it('refuses anything else without a lookup', () => {
    const { keyId, secret } = generateApiKey();
    for (const text of [
      '',
      keyId,
      `${keyId}.`,
      `${keyId}.${secret}x`,
      `${keyId.toUpperCase()}.${secret}`,
      `${keyId}:${secret}`,
    ]) {
      expect(parseApiKey(text)).toBeUndefined();
    }
  });
});

describe('credentials from headers', () => {
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

  it('reads Basic as UTF-8, the password being everything after the first colon', () => {
    expect(presentedCredentials({ authorization: `Basic ${b64('rāj:pa:ss wörd')}` }, 'basic', 'X-API-Key')).toEqual({
      kind: 'basic',
      username: 'rāj',
      password: 'pa:ss wörd',
    });
    expect(presentedCredentials({ authorization: `basic   ${b64('a:')}` }, 'any', 'X-API-Key')).toEqual({
      kind: 'basic',
      username: 'a',
      password: '',
    });
  });

  it('tells malformed Basic from none at all', () => {
    expect(presentedCredentials({ authorization: `Basic ${b64(':nouser')}` }, 'basic', 'X-API-Key')).toEqual({
      kind: 'malformed',
    });
    expect(
      presentedCredentials(
        { authorization: `Basic ${Buffer.from([0xff, 0x3a, 0x41]).toString('base64')}` },
        'basic',
        'X-API-Key',
      ),
    ).toEqual({ kind: 'malformed' });
    expect(presentedCredentials({ authorization: 'Basic' }, 'basic', 'X-API-Key')).toEqual({ kind: 'malformed' });
    expect(presentedCredentials({ authorization: 'Negotiate abc' }, 'basic', 'X-API-Key')).toBeUndefined();
    expect(presentedCredentials({}, 'basic', 'X-API-Key')).toBeUndefined();
  });

  it('reads only what the mode accepts, the key first under any', () => {
    const headers = { authorization: `Basic ${b64('a:b')}`, 'x-mobile-key': 'k' };
    expect(presentedCredentials(headers, 'basic', 'X-Mobile-Key')).toEqual({
      kind: 'basic',
      username: 'a',
      password: 'b',
    });
    expect(presentedCredentials(headers, 'apikey', 'X-Mobile-Key')).toEqual({ kind: 'apikey', key: 'k' });
    expect(presentedCredentials(headers, 'any', 'X-Mobile-Key')).toEqual({ kind: 'apikey', key: 'k' });
    expect(presentedCredentials({ authorization: headers.authorization }, 'apikey', 'X-Mobile-Key')).toBeUndefined();
  });
});

describe('verified passwords', () => {
  it('remembers a verified pair for a minute, only while the stored hash stays the same', () => {
    const clock = clockAt(0);
    const verified = new VerifiedPasswords(clock);
    verified.add('so.one', 'pw', 'hash1');
    expect(verified.has('SO.ONE', 'pw', 'hash1')).toBe(true);
    expect(verified.has('so.one', 'pw2', 'hash1')).toBe(false);
    expect(verified.has('so.one', 'pw', 'hash2')).toBe(false);
    expect(verified.has('so.one', 'pw', 'hash1')).toBe(false);
    verified.add('so.one', 'pw', 'hash1');
    clock.ms += 60_000;
    expect(verified.has('so.one', 'pw', 'hash1')).toBe(false);
  });
});

describe('client address', () => {
  const req = (remoteAddress: string, forwarded?: string) =>
    ({
      socket: { remoteAddress },
      headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
    }) as unknown as IncomingMessage;

  it('is the socket address, or with TRUST_PROXY the last X-Forwarded-For entry', () => {
    expect(clientAddress(req('::ffff:10.1.2.3', '9.9.9.9'), false)).toBe('10.1.2.3');
    expect(clientAddress(req('10.0.0.1', '9.9.9.9, 172.16.0.5 '), true)).toBe('172.16.0.5');
    expect(clientAddress(req('10.0.0.1', ' , '), true)).toBe('10.0.0.1');
    expect(clientAddress(req('10.0.0.1'), true)).toBe('10.0.0.1');
  });
});

describe('settings', () => {
  it('defaults to no authentication and no rate limit', () => {
    const s = loadSettings({});
    expect([s.authMode, s.authRealm, s.authApiKeyHeader, s.rateLimitPerMinute, s.rateLimitBurst]).toEqual([
      'off',
      'MobileApp',
      'X-API-Key',
      0,
      0,
    ]);
  });

  it('reads the modes, the realm, the header and the limits; the burst defaults to the per-minute figure', () => {
    const s = loadSettings({
      AUTH_MODE: 'ApiKey',
      AUTH_REALM: 'Field Sales',
      AUTH_API_KEY_HEADER: 'X-Mobile-Key',
      RATE_LIMIT_PER_MINUTE: '120',
    });
    expect([s.authMode, s.authRealm, s.authApiKeyHeader, s.rateLimitPerMinute, s.rateLimitBurst]).toEqual([
      'apikey',
      'Field Sales',
      'X-Mobile-Key',
      120,
      120,
    ]);
    expect(loadSettings({ RATE_LIMIT_PER_MINUTE: '60', RATE_LIMIT_BURST: '10' }).rateLimitBurst).toBe(10);
  });

  it('reads the failed-login ceilings: 10 per address and username, 200 per address by default', () => {
    expect(loadSettings({})).toMatchObject({ loginFailuresPerMinute: 10, loginFailuresPerAddressPerMinute: 200 });
    const s = loadSettings({ LOGIN_FAILURES_PER_MINUTE: '5', LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '1000' });
    expect([s.loginFailuresPerMinute, s.loginFailuresPerAddressPerMinute]).toEqual([5, 1000]);
  });

  it.each([
    [{ AUTH_MODE: 'kerberos' }, 'AUTH_MODE'],
    [{ AUTH_REALM: 'a"b' }, 'AUTH_REALM'],
    [{ AUTH_API_KEY_HEADER: 'X Key' }, 'AUTH_API_KEY_HEADER'],
    [{ AUTH_API_KEY_HEADER: 'authorization' }, 'AUTH_API_KEY_HEADER'],
    [{ RATE_LIMIT_PER_MINUTE: '-1' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ RATE_LIMIT_BURST: '0' }, 'RATE_LIMIT_BURST'],
    [{ LOGIN_FAILURES_PER_MINUTE: '0' }, 'LOGIN_FAILURES_PER_MINUTE'],
    [{ LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '-5' }, 'LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE'],
  ])('refuses %j naming %s', (env, variable) => {
    expect(() => loadSettings(env)).toThrow(new RegExp(`^${variable}: `));
  });
});
