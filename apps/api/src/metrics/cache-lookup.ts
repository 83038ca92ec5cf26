/**
 * What lookups in a client cache came to, for metrics: hit (answered without a load of its own, including
 * joining a load already under way), miss (loaded), bypass (the cache is off, or the change feed is down).
 */
export type CacheLookupResult = 'hit' | 'miss' | 'bypass';

/**
 * Told `count` lookups (default 1) came to `result`; `scope`, when the cache keeps content scopes: the site id,
 * or null for network-wide content (see content-notifications.ts).
 */
export type CacheLookupObserver = (result: CacheLookupResult, count?: number, scope?: string | null) => void;

export const ignoreCacheLookups: CacheLookupObserver = () => {};
