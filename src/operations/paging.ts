/**
 * Optional paging of the lists that can grow without bound (docs/behaviour.md, "Paging"). A token
 * carries the sort key of the last row given, so the next page is a keyset query: stable under inserts,
 * and as fast on the last page as on the first.
 */
import { invalid } from '../errors';
import { isIsoDate, positiveInteger, text, type Fields } from './parse';

export const PAGE_FIELDS = ['PageSize', 'PageToken'] as const;

/** Largest PageSize accepted, and the size of a page asked for with a PageToken but no PageSize. */
export const MAX_PAGE_SIZE = 5000;
const DEFAULT_PAGE_SIZE = 1000;

const TOKEN_VERSION = 1;

export interface PageRequest<K> {
  size: number;
  /** The key of the last row of the previous page; undefined on the first page. */
  after?: K;
}

/** The page asked for, or undefined for the whole list; `readKey` gives undefined for a key not of this list. */
export function pageRequest<K>(
  fields: Fields<(typeof PAGE_FIELDS)[number]>,
  readKey: (key: unknown) => K | undefined,
): PageRequest<K> | undefined {
  const sizeText = text(fields, 'PageSize');
  const token = text(fields, 'PageToken');
  if (sizeText === undefined && token === undefined) return undefined;
  const size = positiveInteger(fields, 'PageSize', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  if (token === undefined) return { size };
  const key = readKey(decode(token));
  if (key === undefined) throw badToken(token);
  return { size, after: key };
}

export function encodePageToken(key: unknown): string {
  return Buffer.from(JSON.stringify({ v: TOKEN_VERSION, k: key }), 'utf8').toString('base64url');
}

function decode(token: string): unknown {
  if (!/^[A-Za-z0-9_-]{1,2048}$/.test(token)) throw badToken(token);
  try {
    const document = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { v?: unknown; k?: unknown };
    if (document === null || typeof document !== 'object' || document.v !== TOKEN_VERSION) throw badToken(token);
    return document.k;
  } catch {
    throw badToken(token);
  }
}

function badToken(token: string) {
  const shown = token.length > 40 ? `${token.slice(0, 40)}...` : token;
  return invalid(
    'PageToken',
    `'${shown}' is not a page token of this list and sort order (send the NextPageToken of the previous page unchanged, or no PageToken for the first page)`,
  );
}

/** One page read with one row more than asked: the rows to give and the key of the next page. */
export function cutPage<R, K>(rows: R[], size: number, keyOf: (row: R) => K): { rows: R[]; next: K | null } {
  if (rows.length <= size) return { rows, next: null };
  const page = rows.slice(0, size);
  return { rows: page, next: keyOf(page[page.length - 1]) };
}

// A client can change a token: each part of its key is checked for the form its query compares it with
// (PostgreSQL refuses 2026-02-30 and a NUL; SQLite would compare them silently).

/** Reads one part of a decoded key: its value when it has the form, else undefined. */
export type KeyPart<T> = (value: unknown) => T | undefined;

/** A date as the database gives it (yyyy-MM-dd), one that exists. */
export const keyDate: KeyPart<string> = (value) => (typeof value === 'string' && isIsoDate(value) ? value : undefined);

/** Stored text (a code, a number, a name): at most 512 characters, none of them NUL. */
export const keyText: KeyPart<string> = (value) =>
  typeof value === 'string' && value.length <= 512 && !value.includes('\u0000') ? value : undefined;

/** A whole number JavaScript holds exactly (money in minor units). */
export const keyInteger: KeyPart<number> = (value) => (Number.isSafeInteger(value) ? (value as number) : undefined);

/** Exactly this value (the sort order a token continues). */
export function keyConstant<T extends string>(expected: T): KeyPart<T> {
  return (value) => (value === expected ? expected : undefined);
}

/** A list of exactly these parts, in this order. */
export function keyTuple<T extends unknown[]>(...parts: { [I in keyof T]: KeyPart<T[I]> }): KeyPart<T> {
  return (value) => {
    if (!Array.isArray(value) || value.length !== parts.length) return undefined;
    const read: unknown[] = [];
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i](value[i]);
      if (part === undefined) return undefined;
      read.push(part);
    }
    return read as T;
  };
}
