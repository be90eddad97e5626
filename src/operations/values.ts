/** Stored values as the answers give them: money, sums, percentages, and the reports' order. */

/** Money is stored in integer minor units and answered as a number with (at most) two decimals. */
export function amount(minor: unknown): number {
  return Math.round(Number(minor ?? 0)) / 100;
}

/** A sum's or a count's value as a number: PostgreSQL gives numeric as text, a sum over no rows is null. */
export function plainNumber(value: unknown): number {
  return Number(value ?? 0);
}

/** `part` as a percentage of `whole`, two decimals, 0 when `whole` is 0 (both numbers as plainNumber gives them). */
export function percentOf(part: unknown, whole: unknown): number {
  const of = plainNumber(whole);
  return of === 0 ? 0 : Math.round((plainNumber(part) * 10000) / of) / 100;
}

/** A value of an answer row as the reports order them: numbers by value, text by code point, nulls first. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  return (a as number | string) < (b as number | string) ? -1 : 1;
}
