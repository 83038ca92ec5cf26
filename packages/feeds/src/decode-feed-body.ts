import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';

export type CharsetSource = 'bom' | 'utf-8' | 'xml-prolog' | 'content-type' | 'fallback';

/** The decoded text and where its charset came from (handy in tests and logs). */
export interface DecodedFeedBody {
  text: string;
  charset: string;
  source: CharsetSource;
}

/** The decoded text as a sequence of pieces (see decodeFeedChunks), and where its charset came from. */
export interface DecodedFeedChunks {
  chunks: Generator<string, void, undefined>;
  charset: string;
  source: CharsetSource;
}

// When nothing usable is declared, do what browsers do for legacy text.
const FALLBACK_CHARSET = 'windows-1252';

// Characters XML 1.0 forbids; sax would choke on or silently keep them (miniflux#492: U+0013).
const INVALID_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// Bytes decoded per piece: a 15 MiB feed is never one 15-30 MB string, and pieces this small die young
// (1 MiB pieces peaked ~15 MiB higher on the 15 MiB benchmark feed; docs/feed-ingestion.md, Memory).
const BYTES_PER_CHUNK = 1 << 16;

/**
 * Decodes a feed body to a JavaScript string, detecting the charset in this order: byte-order mark,
 * valid UTF-8 (declarations are often wrong, so valid UTF-8 wins), XML prolog encoding, Content-Type
 * charset, then windows-1252. Strips the BOM, leading whitespace and characters invalid in XML.
 */
export function decodeFeedBody(body: Buffer, contentType?: string | null): DecodedFeedBody {
  const { chunks, charset, source } = decodeFeedChunks(body, contentType);
  return { text: [...chunks].join(''), charset, source };
}

/**
 * decodeFeedBody's text in pieces of about `bytesPerChunk` bytes of the body each, decoded only as
 * they are asked for, so a big feed is never held as one string. The charset is chosen from the
 * whole body first (the UTF-8 check reads it without copying). Joined, the pieces are exactly
 * decodeFeedBody's text; empty pieces are never yielded.
 */
export function decodeFeedChunks(
  body: Buffer,
  contentType?: string | null,
  bytesPerChunk = BYTES_PER_CHUNK,
): DecodedFeedChunks {
  const bom = detectBom(body);
  const detected: { charset: string; source: CharsetSource; offset: number } = bom
    ? { ...bom, source: 'bom' }
    : { ...chooseCharset(body, contentType), offset: 0 };
  return {
    chunks: cleanChunks(decodedPieces(body.subarray(detected.offset), detected.charset, bytesPerChunk)),
    charset: detected.charset,
    source: detected.source,
  };
}

/** The body decoded piece by piece; the decoder carries a character split between two pieces over. */
function* decodedPieces(bytes: Buffer, charset: string, bytesPerChunk: number): Generator<string> {
  const decoder = iconv.getDecoder(charset, { stripBOM: true });
  for (let start = 0; start < bytes.length; start += bytesPerChunk) {
    yield decoder.write(bytes.subarray(start, start + bytesPerChunk));
  }
  yield decoder.end() ?? '';
}

/** Strips characters invalid in XML from each piece, and the leading whitespace of the whole text. */
function* cleanChunks(pieces: Iterable<string>): Generator<string, void, undefined> {
  const clean = createPieceCleaner();
  for (const piece of pieces) {
    const text = clean(piece);
    if (text) yield text;
  }
  // A high surrogate still carried at the end is a lone one: invalid in XML, so it is dropped.
}

/** cleanChunks' rule as a function of one piece, keeping what it must carry between pieces. */
function createPieceCleaner(): (piece: string) => string {
  let started = false;
  let carried = '';
  return (piece) => {
    let text = carried + piece;
    // A UTF-16 decoder may end a piece between the two halves of a surrogate pair: keep the first
    // half for the next piece, or the invalid-character rule would strip it as a lone surrogate.
    const last = text.charCodeAt(text.length - 1);
    carried = last >= 0xd800 && last <= 0xdbff ? text.slice(-1) : '';
    if (carried) text = text.slice(0, -1);
    text = text.replace(INVALID_XML_CHARS, '');
    if (!started) {
      text = text.trimStart();
      started = text.length > 0;
    }
    return text;
  };
}

// Bytes of a streamed body read before its charset is chosen (decodeFeedStream).
const SNIFF_BYTES = 1 << 16;

/**
 * decodeFeedChunks for a body still arriving (the preview): the charset is chosen from its first
 * 64 KiB (the UTF-8 check allows a character cut at the end of them) by the same rules, then
 * every piece is decoded as it comes. Stopping the iteration stops reading `bytes`.
 */
export async function* decodeFeedStream(
  bytes: AsyncIterable<Buffer>,
  contentType?: string | null,
  sniffBytes = SNIFF_BYTES,
): AsyncGenerator<string, void, undefined> {
  const source = bytes[Symbol.asyncIterator]();
  const headPieces: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < sniffBytes) {
    const next = await source.next();
    if (next.done) {
      ended = true;
      break;
    }
    headPieces.push(next.value);
    headLength += next.value.length;
  }
  const head = Buffer.concat(headPieces, headLength);
  const bom = detectBom(head);
  const { charset, offset } = bom ?? {
    ...chooseCharset(head, contentType, ended ? isUtf8 : isUtf8Start),
    offset: 0,
  };
  const decoder = iconv.getDecoder(charset, { stripBOM: true });
  const clean = createPieceCleaner();
  try {
    let text = clean(decoder.write(head.subarray(offset)));
    if (text) yield text;
    for (let next = await source.next(); !next.done; next = await source.next()) {
      text = clean(decoder.write(next.value));
      if (text) yield text;
    }
    text = clean(decoder.end() ?? '');
    if (text) yield text;
  } finally {
    await source.return?.();
  }
}

/** Valid UTF-8 up to a character possibly cut at the end (at most 3 bytes of it). */
function isUtf8Start(bytes: Buffer): boolean {
  for (let cut = 0; cut <= 3 && cut < bytes.length; cut++) {
    if (isUtf8(bytes.subarray(0, bytes.length - cut))) return true;
  }
  return isUtf8(bytes);
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
  isValidUtf8: (bytes: Buffer) => boolean = isUtf8,
): { charset: string; source: CharsetSource } {
  if (isValidUtf8(body)) return { charset: 'utf-8', source: 'utf-8' };
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
