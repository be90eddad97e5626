/** Escaping for text and attribute values the server writes into XML and HTML documents. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
