/** Money is stored in integer minor units and returned as a number with (at most) two decimals. */
export function amount(minor: number | null | undefined): number {
  return Math.round(Number(minor ?? 0)) / 100;
}
