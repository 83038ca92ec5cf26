import type { Readable } from 'node:stream';
import type { SurrogateKeys } from '@newsroom/domain';

// What every client read answers, and what send-client-answer.ts sends: types only, so the reads, the
// encodings and the sender depend on this leaf and never on each other.

/** One representation of a response: its bytes, its ETag and its Content-Encoding (null: identity). */
export interface Representation {
  body: Buffer;
  etag: string;
  encoding: 'gzip' | null;
}

/**
 * How an answer may be kept and revalidated: one object per kind and per app (built once from the config,
 * `freshnessOf` in send-client-answer.ts), so an answer points at it and a cached answer costs no allocation.
 */
export interface Freshness {
  /** The Cache-Control of a successful answer (failures keep the key guard's `no-store`). */
  cacheControl: string;
  /**
   * The Cache-Control of a successful answer to a publishable key (`public, max-age, s-maxage,
   * stale-while-revalidate`: a CDN may keep it), sent with the answer's surrogate keys; null: publishable keys
   * get `cacheControl` too.
   */
  sharedCacheControl: string | null;
  /** The Vary to send, or null to keep the key guard's (`x-api-key, origin`). */
  vary: string | null;
  /** Whether a gzip representation may be sent (content-encoding.ts). */
  compressible: boolean;
  /** The payload a 304 is sent with: the change feed's has always been JSON `null` (so it says JSON's type). */
  notModifiedPayload: null | undefined;
}

/** The freshness kinds of the client reads. */
export interface ClientFreshness {
  /** Kept by the response cache (pages, articles, taxonomies, the site, feeds, sitemaps). */
  cached: Freshness;
  /** Streamed from a cursor (`/all`): never compressed. */
  streamed: Freshness;
  /** Never kept: each answer depends on a cursor and on what committed since (the change feed). */
  revalidated: Freshness;
}

/** An answer as bytes, ready to send and to send again (the response cache keeps it whole). */
export interface ClientAnswer {
  body: Buffer;
  etag: string;
  contentType: string;
  freshness: Freshness;
  /** The CDN surrogate keys naming what the answer holds (null: none, a network answer), written at fill. */
  surrogate: SurrogateKeys | null;
  /** The identity representation: always null. */
  encoding: null;
  /** Its gzip representation once a request accepted one (content-encoding.ts), kept with the answer. */
  gzip?: Representation;
}

/** An answer streamed when opened: the ETag at once, the body only when sent (a 304 never opens a cursor). */
export interface StreamedAnswer {
  /** Starts the read; resolves once the first row is in, so a database failure is still a clean error. */
  body: () => Promise<Readable>;
  /** Names the scope's content state (null while the notifications connection is down: no ETag). */
  etag: string | null;
  contentType: string;
  freshness: Freshness;
  surrogate: SurrogateKeys | null;
}

export type ClientRead = ClientAnswer | StreamedAnswer;

export const jsonContentType = 'application/json; charset=utf-8';
