import { LRUCache } from 'lru-cache';
import type { ChangeFeed } from './change-feed';

export interface VersionedMemoOptions<V> {
  /** Most entries kept. */
  max: number;
  /** Optional size bound: total of sizeOf(value) kept (e.g. bytes of cached bodies). */
  maxSize?: number;
  sizeOf?: (value: V) => number;
  /** Off: every get loads (used when the response cache is switched off). */
  enabled?: boolean;
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

  constructor(
    private readonly feed: ChangeFeed,
    options: VersionedMemoOptions<V>,
  ) {
    this.enabled = options.enabled ?? true;
    const sizeOf = options.sizeOf;
    this.entries = new LRUCache<string, { value: V }>({
      max: options.max,
      ...(options.maxSize && sizeOf
        ? { maxSize: options.maxSize, sizeCalculation: (entry) => Math.max(1, sizeOf(entry.value)) }
        : {}),
    });
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (!this.enabled || !this.feed.healthy) return load();
    this.syncGeneration();
    const hit = this.entries.get(key);
    if (hit) return hit.value;
    const pending = this.loading.get(key);
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
