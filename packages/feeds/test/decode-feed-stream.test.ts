import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeFeedBody, decodeFeedStream } from '../src/decode-feed-body';
import { readFixture } from './support/local-server';

async function* inPieces(body: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let start = 0; start < body.length; start += size) yield body.subarray(start, start + size);
}

async function streamed(body: Buffer, size: number, contentType?: string, sniffBytes?: number) {
  let text = '';
  for await (const piece of decodeFeedStream(inPieces(body, size), contentType, sniffBytes)) text += piece;
  return text;
}

const bodies: [string, Buffer, string?][] = [
  ['guardian.rss (UTF-8)', readFixture('guardian.rss')],
  ['uolNoticias.rss (ISO-8859-1 by header)', readFixture('uolNoticias.rss'), 'text/xml; charset=ISO-8859-1'],
  ['encoding.rss', readFixture('encoding.rss')],
  ['heise.atom', readFixture('heise.atom')],
  [
    'UTF-16 with a BOM',
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<rss><title>Müller 𝄞</title></rss>', 'utf16le')]),
  ],
  [
    'windows-1252 by prolog',
    iconv.encode('<?xml version="1.0" encoding="windows-1252"?><rss>“€”</rss>', 'win1252'),
  ],
  ['invalid XML characters and leading space', Buffer.from('  \n<rss>a\u0013b</rss>')],
];

describe('decodeFeedStream', () => {
  it.each(bodies)(
    'gives decodeFeedBody’s text for %s, whatever the piece size',
    async (_name, body, type) => {
      const whole = decodeFeedBody(body, type).text;
      // The charset is chosen from the first 64 KiB (each fixture is shorter or decides within them).
      for (const size of [1, 3, 7, 1000, 65_536]) {
        expect(await streamed(body, size, type)).toBe(whole);
      }
    },
  );

  it('chooses the charset from the first bytes only: UTF-8 there is UTF-8, as the preview needs', async () => {
    const body = Buffer.from('<rss><title>Müller</title></rss>');
    expect(await streamed(body, 5, undefined, 8)).toBe('<rss><title>Müller</title></rss>');
  });

  it('stops reading its source when the reader stops', async () => {
    let piecesRead = 0;
    async function* counted(): AsyncGenerator<Buffer> {
      for (let i = 0; i < 1000; i++) {
        piecesRead++;
        yield Buffer.from('<item>x</item>');
      }
    }
    for await (const _piece of decodeFeedStream(counted(), null, 64)) break;
    expect(piecesRead).toBeLessThan(10);
  });
});
