// Characters XML 1.0 forbids anywhere (C0 controls other than tab, newline, carriage return; lone surrogates;
// U+FFFE/U+FFFF): dropped, since no escape makes them legal.
const forbidden =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters being removed
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Text safe inside an XML element or a double- or single-quoted attribute. */
export function escapeXml(text: string): string {
  return text.replace(forbidden, '').replace(/[&<>"']/g, (char) => escapes[char] as string);
}

/** `<name>text</name>`, escaped. */
export const element = (name: string, text: string) => `<${name}>${escapeXml(text)}</${name}>`;
