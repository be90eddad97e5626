/** The last entry of a header a proxy chain appends to: the one the trusted proxy added; the client wrote the rest. */
export function lastForwarded(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  const last = value
    ?.split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .at(-1);
  return last ? last : undefined;
}
