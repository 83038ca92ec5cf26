import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';

export type CharsetSource = 'bom' | 'utf-8' | 'xml-prolog' | 'content-type' | 'fallback';

/** The decoded text and where its charset came from (handy in tests and logs). */
export interface DecodedFeedBody {
  text: string;
  charset: string;
  source: CharsetSource;
}

// When nothing usable is declared, do what browsers do for legacy text.
const FALLBACK_CHARSET = 'windows-1252';

// Characters XML 1.0 forbids; sax would choke on or silently keep them (miniflux#492: U+0013).
const INVALID_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Decodes a feed body to a JavaScript string, detecting the charset in this order: byte-order mark,
 * valid UTF-8 (declarations are often wrong, so valid UTF-8 wins), XML prolog encoding, Content-Type
 * charset, then windows-1252. Strips the BOM, leading whitespace and characters invalid in XML.
 */
export function decodeFeedBody(body: Buffer, contentType?: string | null): DecodedFeedBody {
  const bom = detectBom(body);
  const detected: { charset: string; source: CharsetSource; offset: number } = bom
    ? { ...bom, source: 'bom' }
    : { ...chooseCharset(body, contentType), offset: 0 };
  const text = iconv.decode(body.subarray(detected.offset), detected.charset, { stripBOM: true });
  return {
    text: text.replace(INVALID_XML_CHARS, '').trimStart(),
    charset: detected.charset,
    source: detected.source,
  };
}

function detectBom(body: Buffer): { charset: string; offset: number } | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { charset: 'utf-8', offset: 3 };
  if (body[0] === 0xfe && body[1] === 0xff) return { charset: 'utf-16be', offset: 2 };
  if (body[0] === 0xff && body[1] === 0xfe) return { charset: 'utf-16le', offset: 2 };
  return undefined;
}

function chooseCharset(
  body: Buffer,
  contentType: string | null | undefined,
): { charset: string; source: CharsetSource } {
  if (isUtf8(body)) return { charset: 'utf-8', source: 'utf-8' };
  const fromProlog = usableCharset(prologEncoding(body));
  if (fromProlog) return { charset: fromProlog, source: 'xml-prolog' };
  const fromHeader = usableCharset(contentTypeCharset(contentType));
  if (fromHeader) return { charset: fromHeader, source: 'content-type' };
  return { charset: FALLBACK_CHARSET, source: 'fallback' };
}

function prologEncoding(body: Buffer): string | undefined {
  // The prolog is ASCII in every encoding we can name in it, so latin1 is safe for peeking.
  const head = body.subarray(0, 1024).toString('latin1');
  return /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(head)?.[1];
}

function contentTypeCharset(contentType: string | null | undefined): string | undefined {
  if (!contentType) return undefined;
  return /;\s*charset\s*=\s*"?([A-Za-z0-9._:-]+)"?/i.exec(contentType)?.[1];
}

function usableCharset(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const normalised = label.trim().toLowerCase();
  // The body is not valid UTF-8, so a UTF-8 declaration is wrong; let the next source decide.
  if (normalised === 'utf-8' || normalised === 'utf8') return undefined;
  // As in browsers: latin1 and ASCII labels mean windows-1252, which also maps 0x80-0x9F to “ ” – € etc.
  if (['iso-8859-1', 'iso8859-1', 'latin1', 'latin-1', 'us-ascii', 'ascii'].includes(normalised)) {
    return FALLBACK_CHARSET;
  }
  return iconv.encodingExists(normalised) ? normalised : undefined;
}
