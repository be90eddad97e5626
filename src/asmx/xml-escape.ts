/**
 * Escaping for every value the server writes into its XML and HTML documents, in one place:
 * escapeXml for attribute values and the documents' own text (WSDL, disco, help pages, <string>),
 * escapeXmlText for text content written the way ASMX writes it (fault strings).
 */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeXml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/**
 * Escapes text content the way ASMX does (&, <, >). Every character of the input is escaped, so a
 * message that contains "<![CDATA[" can never open markup in the document; characters XML 1.0 cannot
 * carry at all become U+FFFD so the document always stays well-formed.
 */
export function escapeXmlText(text: string): string {
  return replaceNonXmlChars(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Characters XML 1.0 cannot carry (controls, lone surrogates, U+FFFE/U+FFFF) become U+FFFD. */
export function replaceNonXmlChars(text: string): string {
  return text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
}
