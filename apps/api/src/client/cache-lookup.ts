/**
 * What lookups in a client cache came to, for metrics: hit (answered without a load of its own, including
 * joining a load already under way), miss (loaded), bypass (the cache is off, or the change feed is down).
 */
export type CacheLookupResult = 'hit' | 'miss' | 'bypass';

/** Told `count` lookups (default 1) came to `result`. */
export type CacheLookupObserver = (result: CacheLookupResult, count?: number) => void;

export const ignoreCacheLookups: CacheLookupObserver = () => {};
