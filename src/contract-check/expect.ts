/**
 * The assertions of the checks. Each throws a CheckFailure that says what was expected and what the
 * server answered, short enough for one report line.
 */
import type { HttpExchange } from './http-client';

export class CheckFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckFailure';
  }
}

export function fail(message: string): never {
  throw new CheckFailure(message);
}

export function expectThat(condition: boolean, message: string): asserts condition {
  if (!condition) fail(message);
}

export function expectEqual<T>(actual: T, expected: T, what: string): void {
  if (actual !== expected) fail(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

export function expectStatus(exchange: HttpExchange, status: number): void {
  if (exchange.status !== status) fail(`status: expected ${status}, got ${exchange.status}${bodyHint(exchange)}`);
}

/** The whole Content-Type header, compared as the contract writes it (case of the media type aside). */
export function expectContentType(exchange: HttpExchange, expected: string): void {
  const actual = exchange.headers['content-type'];
  if (normalise(actual) !== normalise(expected)) fail(`Content-Type: expected ${show(expected)}, got ${show(actual)}`);
}

/** Only the media type, for answers whose parameters the contract leaves open (the help page). */
export function expectMediaType(exchange: HttpExchange, expected: string): void {
  const actual = (exchange.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (actual !== expected)
    fail(`media type: expected ${show(expected)}, got ${show(exchange.headers['content-type'])}`);
}

export function expectBody(exchange: HttpExchange, expected: string): void {
  if (exchange.body !== expected) fail(`body: expected ${show(expected)}, got ${show(exchange.body)}`);
}

export function expectIncludes(text: string, part: string, what: string): void {
  if (!text.includes(part)) fail(`${what}: expected it to contain ${show(part)}, got ${show(text)}`);
}

function normalise(contentType: string | undefined): string {
  return (contentType ?? '')
    .replace(/\s*;\s*/g, '; ')
    .trim()
    .toLowerCase();
}

function bodyHint(exchange: HttpExchange): string {
  return exchange.body ? ` (${show(exchange.body)})` : '';
}

const MAX_SHOWN = 300;

export function show(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}...` : text;
}
