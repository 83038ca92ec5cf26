import { type Readable, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { EgressError } from './egress-error';

/**
 * Decoders for a Content-Encoding header, in the order they must be applied (the header lists the
 * encodings in the order the server applied them).
 */
export function createDecoders(contentEncoding: string | null | undefined): Transform[] {
  if (!contentEncoding) return [];
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  return codings.reverse().map(createDecoder);
}

/** A body being decompressed as it is read; close() stops it (every stage destroyed). */
export interface DecompressedBody {
  body: Readable;
  close(): void;
}

/**
 * A response body decompressed piece by piece, for a caller that may stop reading early (a preview). Throws
 * EgressError UNSUPPORTED_ENCODING, the body destroyed, for a coding it does not decode.
 */
export function openDecompressed(
  body: Readable,
  contentEncoding: string | null | undefined,
): DecompressedBody {
  let decoders: Transform[];
  try {
    decoders = createDecoders(contentEncoding);
  } catch (error) {
    body.destroy();
    throw error;
  }
  const decoded: Readable = decoders.length
    ? (decoders.reduce<Readable>((source, decoder) => source.pipe(decoder), body) as Readable)
    : body;
  // pipe() does not forward errors: any stage failing ends the last one with that error.
  for (const stage of [body, ...decoders]) stage.on('error', (error) => decoded.destroy(error));
  return {
    body: decoded,
    close() {
      for (const stage of [body, ...decoders]) stage.destroy();
    },
  };
}

function createDecoder(coding: string): Transform {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return new DeflateDecoder();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      throw new EgressError('UNSUPPORTED_ENCODING', 'The server used an unsupported content encoding.');
  }
}

/**
 * "deflate" is meant to be zlib-wrapped, but some servers send raw deflate; like browsers, sniff the
 * zlib header (CMF/FLG check) on the first chunk and pick the matching inflater.
 */
class DeflateDecoder extends Transform {
  #inner: zlib.Inflate | zlib.InflateRaw | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (!this.#inner) {
      this.#inner = hasZlibHeader(chunk) ? zlib.createInflate() : zlib.createInflateRaw();
      this.#inner.on('data', (data: Buffer) => this.push(data));
      this.#inner.on('error', (error) => this.destroy(error));
    }
    this.#inner.write(chunk, () => done());
  }

  override _flush(done: TransformCallback): void {
    const inner = this.#inner;
    if (!inner) {
      done();
      return;
    }
    inner.once('end', () => done());
    inner.end();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.#inner?.destroy();
    done(error);
  }
}

function hasZlibHeader(chunk: Buffer): boolean {
  const cmf = chunk[0];
  const flg = chunk[1];
  if (cmf === undefined) return false;
  if (flg === undefined) return (cmf & 0x0f) === 8;
  return (cmf & 0x0f) === 8 && ((cmf << 8) | flg) % 31 === 0;
}
