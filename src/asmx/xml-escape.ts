/** Escaping for every value the server writes into its XML and HTML documents. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Text content as ASMX escapes it (&, <, >, fault strings), so "<![CDATA[" never opens markup; non-XML characters become U+FFFD. */
export function escapeXmlText(text: string): string {
  return replaceNonXmlChars(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Characters XML 1.0 cannot carry (controls, lone surrogates, U+FFFE/U+FFFF) become U+FFFD. */
export function replaceNonXmlChars(text: string): string {
  return text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
}
