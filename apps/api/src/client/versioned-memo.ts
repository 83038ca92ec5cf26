import { LRUCache } from 'lru-cache';
import { type CacheLookupObserver, ignoreCacheLookups } from './cache-lookup';
import type { ChangeFeed } from './change-feed';

export interface VersionedMemoOptions<V> {
  /** Most entries kept. */
  max: number;
  /** Optional size bound: total of sizeOf(value) kept (e.g. bytes of cached bodies). */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /** Off: every get loads (used when the response cache is switched off). */
  enabled?: boolean;
  /** Told what each get came to (metrics). */
  onLookup?: CacheLookupObserver;
}

/**
 * An in-process memo of loaded values that lives exactly as long as one content generation:
 * any change announced by the ChangeFeed empties it, and while the feed is down it is bypassed, so a value
 * can never be served after a change this replica has heard of. Concurrent misses of a key share one load.
 */
export class VersionedMemo<V> {
  private readonly entries: LRUCache<string, { value: V }>;
  private readonly loading = new Map<string, Promise<V>>();
  private generation = -1;
  private readonly enabled: boolean;
  private readonly onLookup: CacheLookupObserver;

  constructor(
    private readonly feed: ChangeFeed,
    options: VersionedMemoOptions<V>,
  ) {
    this.enabled = options.enabled ?? true;
    this.onLookup = options.onLookup ?? ignoreCacheLookups;
    const sizeOf = options.sizeOf;
    this.entries = new LRUCache<string, { value: V }>({
      max: options.max,
      ...(options.maxSize && sizeOf
        ? { maxSize: options.maxSize, sizeCalculation: (entry) => Math.max(1, sizeOf(entry.value)) }
        : {}),
    });
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (!this.enabled || !this.feed.healthy) {
      this.onLookup('bypass');
      return load();
    }
    this.syncGeneration();
    const hit = this.entries.get(key);
    const pending = hit ? undefined : this.loading.get(key);
    this.onLookup(hit || pending ? 'hit' : 'miss');
    if (hit) return hit.value;
    if (pending) return pending;

    const generation = this.generation;
    const promise = load().then(
      (value) => {
        // Stored only if no change was announced while loading (the value might predate it).
        if (this.loading.get(key) === promise) this.loading.delete(key);
        if (generation === this.feed.generation && generation === this.generation) {
          this.entries.set(key, { value });
        }
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  private syncGeneration(): void {
    if (this.generation === this.feed.generation) return;
    this.generation = this.feed.generation;
    this.entries.clear();
    this.loading.clear();
  }
}
