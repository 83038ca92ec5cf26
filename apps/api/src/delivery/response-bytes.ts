import { createHash } from 'node:crypto';
import type { SurrogateKeys } from '@newsroom/domain';
import { type ClientAnswer, type Freshness, jsonContentType } from './client-answer';

/** A serialised body and its strong ETag. */
export interface ResponseBytes {
  body: Buffer;
  etag: string;
}

/** A strong validator derived from the bytes: the same body gets the same ETag on every replica. */
export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

export function bytesOf(text: string): ResponseBytes {
  const body = Buffer.from(text, 'utf8');
  return { body, etag: etagOf(body) };
}

/**
 * An answer of these bytes (JSON unless told), with the surrogate keys naming what it holds. Made once per
 * fill: a cached answer is sent as it is.
 */
export function answerOf(
  bytes: ResponseBytes,
  freshness: Freshness,
  surrogate: SurrogateKeys | null,
  contentType: string = jsonContentType,
): ClientAnswer {
  return { body: bytes.body, etag: bytes.etag, contentType, freshness, surrogate, encoding: null };
}
