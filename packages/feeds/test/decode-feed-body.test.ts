import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeFeedBody, decodeFeedChunks } from '../src/decode-feed-body';
import { readFixture } from './support/local-server';

const latin1Prolog = (body: string) =>
  `<?xml version="1.0" encoding="ISO-8859-1"?><rss><title>${body}</title></rss>`;

describe('decodeFeedBody', () => {
  it('strips a UTF-8 byte-order mark', () => {
    const decoded = decodeFeedBody(
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<rss>é</rss>')]),
    );
    expect(decoded).toEqual({ text: '<rss>é</rss>', charset: 'utf-8', source: 'bom' });
  });

  it('decodes UTF-16 with a byte-order mark', () => {
    const body = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<rss>Müller</rss>', 'utf16le')]);
    expect(decodeFeedBody(body).text).toBe('<rss>Müller</rss>');
  });

  it('lets valid UTF-8 win over a wrong declaration', () => {
    const body = Buffer.from(latin1Prolog('Notícias'), 'utf8');
    const decoded = decodeFeedBody(body, 'text/xml; charset=iso-8859-1');
    expect(decoded.source).toBe('utf-8');
    expect(decoded.text).toContain('Notícias');
  });

  it('uses the XML prolog encoding before the Content-Type charset', () => {
    const body = iconv.encode(latin1Prolog('Notícias'), 'latin1');
    const decoded = decodeFeedBody(body, 'text/xml; charset=koi8-r');
    expect(decoded.source).toBe('xml-prolog');
    expect(decoded.text).toContain('Notícias');
  });

  it('uses the Content-Type charset when there is no prolog', () => {
    const body = iconv.encode('<rss><title>Привет</title></rss>', 'koi8-r');
    const decoded = decodeFeedBody(body, 'application/rss+xml; charset="KOI8-R"');
    expect(decoded).toMatchObject({ source: 'content-type', charset: 'koi8-r' });
    expect(decoded.text).toContain('Привет');
  });

  it('falls back to windows-1252, which also covers smart quotes that latin1 lacks', () => {
    const body = Buffer.from([
      ...Buffer.from('<rss>'),
      0x93,
      0x68,
      0x69,
      0x94,
      0x20,
      0x80,
      0xe9,
      ...Buffer.from('</rss>'),
    ]);
    const decoded = decodeFeedBody(body);
    expect(decoded.source).toBe('fallback');
    expect(decoded.text).toBe('<rss>“hi” €é</rss>');
  });

  it('treats an ISO-8859-1 declaration as windows-1252', () => {
    const body = Buffer.concat([Buffer.from(latin1Prolog('')), Buffer.from([0x96])]);
    expect(decodeFeedBody(body).text.endsWith('–')).toBe(true);
  });

  it('strips characters that are invalid in XML and leading whitespace', () => {
    const decoded = decodeFeedBody(Buffer.from('\n\t <rss>a\u0013b\u0000c\u000bd\uffffe</rss>'));
    expect(decoded.text).toBe('<rss>abcde</rss>');
  });

  it('strips exactly the code points XML 1.0 forbids: each UTF-16 code unit alone, and surrogate pairs', () => {
    const invalid = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
    const decode = (text: string) =>
      decodeFeedBody(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])).text;
    const wrong: number[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      const text = `<rss>a${String.fromCharCode(unit)}b</rss>`;
      if (decode(text) !== text.replace(invalid, '')) wrong.push(unit);
    }
    expect(wrong).toEqual([]);
    expect(decode('<rss>\ud83d\ude00 \udbff\udfff \ud800</rss>')).toBe(
      '<rss>\ud83d\ude00 \udbff\udfff </rss>',
    );
  });

  it('decodes the ISO-8859-1 fixtures to real accented words', () => {
    expect(decodeFeedBody(readFixture('encoding.rss')).text).toContain(
      'Jornal de Notícias - Últimas Notícias',
    );
    // uolNoticias.rss has no prolog at all: the header, or failing that windows-1252, decides.
    const uol = readFixture('uolNoticias.rss');
    expect(decodeFeedBody(uol, 'text/xml; charset=ISO-8859-1').text).toContain('simulações de 2º turno');
    expect(decodeFeedBody(uol).text).toContain('Últimas Notícias');
  });
});

describe('decodeFeedChunks', () => {
  const piecesOf = (body: Buffer, bytesPerChunk: number, contentType?: string) => [
    ...decodeFeedChunks(body, contentType, bytesPerChunk).chunks,
  ];

  const bodies: [string, Buffer, string?][] = [
    ['UTF-8 with 2-, 3- and 4-byte characters', Buffer.from('<rss>é – € 😀 Notícias 日本</rss>')],
    [
      'UTF-8 with a byte-order mark',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<rss>Müller 😀</rss>')]),
    ],
    [
      'UTF-16LE with a byte-order mark and a surrogate pair',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<rss>Müller 😀 日本</rss>', 'utf16le')]),
    ],
    [
      'UTF-16BE with a byte-order mark and a surrogate pair',
      Buffer.concat([Buffer.from([0xfe, 0xff]), iconv.encode('<rss>Müller 😀 日本</rss>', 'utf-16be')]),
    ],
    [
      'windows-1252 (fallback)',
      Buffer.from([...Buffer.from('<rss>'), 0x93, 0x68, 0x94, 0x80, 0xe9, ...Buffer.from('</rss>')]),
    ],
    [
      'KOI8-R from the Content-Type',
      iconv.encode('<rss><title>Привет</title></rss>', 'koi8-r'),
      'text/xml; charset=koi8-r',
    ],
    [
      'Shift_JIS from the prolog',
      iconv.encode('<?xml version="1.0" encoding="Shift_JIS"?><rss>日本語のニュース</rss>', 'shift_jis'),
    ],
    [
      'leading whitespace and invalid characters',
      Buffer.from('\n\t   \n <rss>a\u0013b\u0000c\u000bd\uffffe 😀</rss>'),
    ],
  ];

  it.each(bodies)(
    'joins to decodeFeedBody exactly, wherever the pieces are cut: %s',
    (_name, body, contentType) => {
      const whole = decodeFeedBody(body, contentType);
      for (let bytesPerChunk = 1; bytesPerChunk <= 9; bytesPerChunk++) {
        const pieces = piecesOf(body, bytesPerChunk, contentType);
        expect(pieces.join(''), `${bytesPerChunk} bytes per piece`).toBe(whole.text);
        expect(pieces.every((piece) => piece.length > 0)).toBe(true);
      }
      expect(decodeFeedChunks(body, contentType)).toMatchObject({
        charset: whole.charset,
        source: whole.source,
      });
    },
  );

  it('never holds a big body as one string', () => {
    const body = Buffer.from(`<rss>${'Notícias 😀 '.repeat(50_000)}</rss>`);
    const pieces = piecesOf(body, 64 * 1024);
    expect(pieces.length).toBeGreaterThan(5);
    expect(Math.max(...pieces.map((piece) => piece.length))).toBeLessThanOrEqual(64 * 1024);
    expect(pieces.join('')).toBe(decodeFeedBody(body).text);
  });

  it('decodes a piece only when it is asked for', () => {
    const body = Buffer.from(`<rss>${'x'.repeat(100)}</rss>`);
    const { chunks } = decodeFeedChunks(body, null, 10);
    expect(chunks.next().value).toBe('<rss>xxxxx');
    expect(chunks.next().value).toBe('xxxxxxxxxx');
  });
});
