/**
 * A header a proxy chain appends to ("a, b"): with TRUST_PROXY only the last entry counts, the one the
 * nearest (trusted) proxy added; the entries before it are whatever the client wrote.
 */
export function lastForwarded(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  const last = value?.split(',').map((entry) => entry.trim()).filter(Boolean).at(-1);
  return last ? last : undefined;
}
