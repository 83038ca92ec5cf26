import { type Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createDecoders } from './decompress';
import { EgressError, tooLargeError } from './egress-error';

/**
 * Reads a response body, decompressing it ourselves so that the cap applies to decompressed bytes:
 * a compression bomb stops as soon as the cap is crossed, because the collector errors and the
 * pipeline tears down the inflater and the socket before the rest is inflated.
 */
export async function readCappedBody(
  body: Readable,
  contentEncoding: string | null | undefined,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const decoders = createDecoders(contentEncoding);
  if (decoders.length === 0) return readPlainBody(body, maxBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  const collector = new Writable({
    write(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > maxBytes) {
        done(tooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
      done();
    },
  });

  try {
    await pipeline([body, ...decoders, collector], { signal });
  } catch (error) {
    throw asCorruptCompression(error);
  }
  return Buffer.concat(chunks, total);
}

/**
 * An uncompressed body, read directly (most feed servers do not compress for us): no pipeline, whose
 * AbortController and DOMException on every finish cost more than reading a news feed's few chunks. The
 * response's own signal (undici's request) still ends the body on a timeout or an abort.
 */
async function readPlainBody(body: Readable, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) {
      body.destroy();
      throw tooLargeError(maxBytes);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/**
 * A (decompressed) body's pieces as they arrive, for a reader that may stop early: failing with TOO_LARGE once they
 * pass `maxBytes` and with CORRUPT_ENCODING for a zlib or brotli failure, the body destroyed either way.
 */
export async function* readCappedPieces(body: Readable, maxBytes: number): AsyncGenerator<Buffer> {
  let total = 0;
  try {
    for await (const piece of body as AsyncIterable<Buffer>) {
      total += piece.length;
      if (total > maxBytes) throw tooLargeError(maxBytes);
      yield piece;
    }
  } catch (error) {
    body.destroy();
    throw asCorruptCompression(error);
  }
}

/** A zlib or brotli failure as the EgressError CORRUPT_ENCODING; anything else as it is. */
export function asCorruptCompression(error: unknown): unknown {
  if (error instanceof EgressError || !isZlibError(error)) return error;
  return new EgressError('CORRUPT_ENCODING', 'The server sent a corrupt compressed response.', {
    cause: error,
  });
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('Z_') || code.startsWith('ERR_BROTLI'));
}
