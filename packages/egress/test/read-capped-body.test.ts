import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openDecompressed } from '../src/decompress';
import { EgressError } from '../src/egress-error';
import { readCappedBody, readCappedPieces } from '../src/read-capped-body';

// The feed fetcher's tests (packages/feeds) cover these through real responses; here they stand on their own.

const text = 'a line of a news feed\n'.repeat(2_000);

async function failure(promise: Promise<unknown>): Promise<EgressError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(EgressError);
  return error as EgressError;
}

describe('readCappedBody', () => {
  const signal = new AbortController().signal;

  it('reads a plain body and decodes gzip, deflate (zlib-wrapped or raw) and br', async () => {
    const bodies: Array<[string | undefined, Buffer]> = [
      [undefined, Buffer.from(text)],
      ['gzip', zlib.gzipSync(text)],
      ['deflate', zlib.deflateSync(text)],
      ['deflate', zlib.deflateRawSync(text)],
      ['br', zlib.brotliCompressSync(text)],
      ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(text))],
    ];
    for (const [encoding, body] of bodies) {
      const read = await readCappedBody(Readable.from([body]), encoding, 1024 * 1024, signal);
      expect(read.toString(), encoding).toBe(text);
    }
  });

  it('caps the decompressed bytes, so a compression bomb stops at the cap', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    const error = await failure(readCappedBody(Readable.from([bomb]), 'gzip', 1024 * 1024, signal));
    expect(error.code).toBe('TOO_LARGE');
    expect(error.message).toBe('The response is larger than the 1 MiB limit.');
    const plain = await failure(readCappedBody(Readable.from([Buffer.from(text)]), null, 100, signal));
    expect(plain.code).toBe('TOO_LARGE');
  });

  it('reports a corrupt compressed body with the zlib error as its cause, and an unknown coding', async () => {
    const corrupt = await failure(
      readCappedBody(Readable.from([Buffer.from('not gzip')]), 'gzip', 1024, signal),
    );
    expect(corrupt.code).toBe('CORRUPT_ENCODING');
    expect((corrupt.cause as { code?: string }).code).toMatch(/^Z_/);
    const unknown = await failure(readCappedBody(Readable.from([Buffer.from(text)]), 'zstd-x', 1024, signal));
    expect(unknown.code).toBe('UNSUPPORTED_ENCODING');
  });
});

describe('readCappedPieces', () => {
  async function readAll(pieces: AsyncIterable<Buffer>): Promise<Buffer> {
    const read: Buffer[] = [];
    for await (const piece of pieces) read.push(piece);
    return Buffer.concat(read);
  }

  it('hands the pieces over up to the cap, then fails with TOO_LARGE and destroys the body', async () => {
    const body = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]);
    const read: Buffer[] = [];
    const error = await failure(
      (async () => {
        for await (const piece of readCappedPieces(body, 1000)) read.push(piece);
      })(),
    );
    expect(error.code).toBe('TOO_LARGE');
    expect(read).toHaveLength(1);
    expect(body.destroyed).toBe(true);
  });

  it('reads a decompressed body whole, and reports corrupt compression as CORRUPT_ENCODING', async () => {
    const good = openDecompressed(Readable.from([zlib.brotliCompressSync(text)]), 'br');
    expect((await readAll(readCappedPieces(good.body, 1024 * 1024))).toString()).toBe(text);
    const bad = openDecompressed(Readable.from([Buffer.from('not gzip at all')]), 'gzip');
    const error = await failure(readAll(readCappedPieces(bad.body, 1024 * 1024)));
    expect(error.code).toBe('CORRUPT_ENCODING');
  });
});

describe('openDecompressed', () => {
  it('hands the decompressed pieces over as they are read', async () => {
    const { body } = openDecompressed(Readable.from([zlib.gzipSync(text)]), 'gzip');
    const pieces: Buffer[] = [];
    for await (const piece of body as AsyncIterable<Buffer>) pieces.push(piece);
    expect(Buffer.concat(pieces).toString()).toBe(text);
  });

  it('destroys the body when the coding is unknown', () => {
    const source = Readable.from([Buffer.from(text)]);
    expect(() => openDecompressed(source, 'zstd-x')).toThrow(EgressError);
    expect(source.destroyed).toBe(true);
  });
});
