import { createHash } from 'node:crypto';
import type { Representation } from './content-encoding';

/** A serialised client response, ready to send again: kept as bytes, so a cache hit encodes nothing. */
export interface CacheableResponse {
  body: Buffer;
  etag: string;
  /** The identity representation (see content-encoding.ts): always null. */
  encoding: null;
  /** Its gzip representation once a request accepted one (content-encoding.ts), kept with the response. */
  gzip?: Representation;
}

/** A strong validator derived from the bytes: the same body gets the same ETag on every replica. */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

export function cacheable(json: string): CacheableResponse {
  const body = Buffer.from(json, 'utf8');
  return { body, etag: etagOf(body), encoding: null };
}
