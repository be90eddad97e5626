/**
 * No setting's password reaches a message or a log line: the real process (src/main.ts) started with
 * settings that carry one, refused at start or failing to reach what they name, writes each URL with
 * its password replaced (redactedUrl, src/config.ts), on stdout and stderr alike.
 */
import { redactedUrl } from '../../src/config';
import { spawnPerTest, type SpawnedServer } from './spawned-server';

const SECRET = 'S3cretPW';

/** Everything the process wrote, once it has exited (or been stopped after its listening line). */
async function output(
  server: SpawnedServer,
  stopWhenListening: boolean,
): Promise<{ code: number | null; text: string }> {
  if (stopWhenListening) {
    await server.waitForLine((line) => typeof line.address === 'string');
    server.child.kill('SIGKILL');
  }
  const { code } = await server.exited;
  return { code, text: `${server.lines.map((line) => JSON.stringify(line)).join('\n')}\n${server.stderr()}` };
}

describe('redactedUrl', () => {
  it.each([
    ['postgres://app:S3cretPW@db:5432/app', 'postgres://app:***@db:5432/app'],
    ['mysql://app:S3cretPW@db/x', 'mysql://app:***@db/x'],
    ['redis://:S3cretPW@cache:6379/0', 'redis://:***@cache:6379/0'],
    ['redis://app:S3cret PW@/cache', 'redis://app:***@/cache'],
    ['postgres://app:S3c@ret/PW@db/app', 'postgres://app:***@db/app'],
    ['postgres://app@db/app?sslmode=require&password=S3cretPW', 'postgres://app@db/app?sslmode=require&password=***'],
    ['https://api.example.com/x.asmx/op?user=a&ApiKey=S3cretPW', 'https://api.example.com/x.asmx/op?user=a&ApiKey=***'],
    ['postgres://app@db:5432/app', 'postgres://app@db:5432/app'],
    ['http://127.0.0.1:8081/x.asmx/op?email=so@example.com', 'http://127.0.0.1:8081/x.asmx/op?email=so@example.com'],
    ['postgres://app:12345@db/app', 'postgres://app:***@db/app'],
    ['sqlite:./data/mobileapp.db', 'sqlite:./data/mobileapp.db'],
  ])('%s is shown as %s', (url, shown) => {
    expect(redactedUrl(url)).toBe(shown);
  });
});

describe('a process started with secrets in its settings', () => {
  const spawn = spawnPerTest();

  it.each([
    ['an unsupported DATABASE_URL', { DATABASE_URL: `mysql://app:${SECRET}@db/x` }, 'mysql://app:***@db/x'],
    [
      'a malformed REDIS_URL',
      { RATE_LIMIT_STORE: 'redis', REDIS_URL: `redis://app:${SECRET} x@cache:6379` },
      'redis://app:***@cache:6379',
    ],
    [
      'a PUBLIC_URL with credentials',
      { PUBLIC_URL: `https://ops:${SECRET}@api.example.com` },
      'https://ops:***@api.example.com',
    ],
    [
      'an unreachable database',
      { DATABASE_URL: `postgres://app:${SECRET}@127.0.0.1:1/app`, DB_STARTUP_TIMEOUT_MS: '0' },
      'postgres://app:***@127.0.0.1:1/app',
    ],
    [
      'a password in the query',
      { DATABASE_URL: `postgres://app@127.0.0.1:1/app?password=${SECRET}`, DB_STARTUP_TIMEOUT_MS: '0' },
      'password=***',
    ],
  ])('refused for %s, names it without the password', async (_case, env, shown) => {
    const { code, text } = await output(spawn(env), false);
    expect(code).toBe(1);
    expect(text).toContain(shown);
    expect(text).not.toContain(SECRET);
  });

  it('a tracing endpoint the SDK cannot parse, and its headers, are written without their secrets', async () => {
    const env = {
      DATABASE_URL: 'sqlite::memory:',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://collector:${SECRET}@ bad:4318`,
      OTEL_EXPORTER_OTLP_HEADERS: `Authorization=Bearer%20${SECRET}`,
    };
    const { text } = await output(spawn(env), true);
    // The SDK's warning is there, with the endpoint masked.
    expect(text).toContain('http://collector:***@ bad:4318');
    expect(text).not.toContain(SECRET);
  });
});
