import { gzipSync } from 'node:zlib';
import type { ClientAnswer, Representation } from './client-answer';

// Compressed representations of cached client responses (RFC 9110 §8.4, §12.5.3): gzip, made once per cached
// response and kept with it. No brotli: on the client JSON, brotli at the qualities cheap enough to run at fill
// time (4-5) made bodies no smaller than gzip's default level at similar or higher cost (see README.md).

/** Bodies smaller than this are always sent as they are: a few hundred bytes saved are not worth a zlib run. */
export const minCompressedBytes = 1024;

/** Whether an Accept-Encoding value accepts gzip (gzip or x-gzip, or `*` not excluding it, with q > 0). */
export function acceptsGzip(header: string): boolean {
  let star = false;
  for (const part of header.split(',')) {
    const [rawName = '', ...params] = part.split(';');
    const name = rawName.trim().toLowerCase();
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    const q = params.map((param) => param.trim().toLowerCase()).find((param) => param.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name === '*') star = accepted;
    else return accepted;
  }
  return star;
}

// Child sites send the same few Accept-Encoding values over and over: each is parsed once.
const acceptedByHeader = new Map<string, boolean>();
const maxRememberedHeaders = 64;

function gzipAccepted(header: string | undefined): boolean {
  if (!header) return false;
  let accepted = acceptedByHeader.get(header);
  if (accepted === undefined) {
    accepted = acceptsGzip(header);
    if (acceptedByHeader.size >= maxRememberedHeaders) acceptedByHeader.clear();
    acceptedByHeader.set(header, accepted);
  }
  return accepted;
}

/** The gzip representation of a response: its own strong ETag (the identity's with `-gzip` inside the quotes). */
function gzipped(response: ClientAnswer): Representation {
  return {
    body: gzipSync(response.body),
    etag: `${response.etag.slice(0, -1)}-gzip"`,
    encoding: 'gzip',
  };
}

/**
 * The representation to send for a request's Accept-Encoding: gzip when accepted and the body is at least
 * `minCompressedBytes`, else the identity. The gzip bytes are made at the first request that accepts them and
 * kept on the response object, so a cached response is compressed once per fill, and never for a response no
 * client asked compressed.
 */
export function representationOf(response: ClientAnswer, acceptEncoding: string | undefined): Representation {
  if (response.body.length < minCompressedBytes || !gzipAccepted(acceptEncoding)) return response;
  response.gzip ??= gzipped(response);
  return response.gzip;
}
