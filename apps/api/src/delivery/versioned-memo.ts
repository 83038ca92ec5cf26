import { LRUCache } from 'lru-cache';
import { type CacheLookupObserver, ignoreCacheLookups } from '../metrics/cache-lookup';
import type { ContentNotifications, ContentScope, ContentStamp } from './content-notifications';

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

interface Stamped {
  scope: ContentScope;
  stamp: ContentStamp;
}
interface Held<V> extends Stamped {
  value: V;
}
interface Loading<V> extends Stamped {
  promise: Promise<V>;
}

/**
 * An in-process memo of loaded values, each kept with the content scope it depends on (one site, or the
 * network: null) and that scope's stamp when its load started. A value is served only while its scope's
 * stamp is unchanged: a change announced for site A retires A's entries and the network's, never site B's.
 * While the notifications connection is down the memo is bypassed, so a value can never be served after a
 * change this replica has heard of. Concurrent misses of a key in one state share one load.
 */
export class VersionedMemo<V> {
  private readonly entries: LRUCache<string, Held<V>>;
  private readonly loading = new Map<string, Loading<V>>();
  private readonly enabled: boolean;
  private readonly onLookup: CacheLookupObserver;

  constructor(
    private readonly notifications: ContentNotifications,
    options: VersionedMemoOptions<V>,
  ) {
    this.enabled = options.enabled ?? true;
    this.onLookup = options.onLookup ?? ignoreCacheLookups;
    const sizeOf = options.sizeOf;
    this.entries = new LRUCache<string, Held<V>>({
      max: options.max,
      ...(options.maxSize && sizeOf
        ? { maxSize: options.maxSize, sizeCalculation: (entry) => Math.max(1, sizeOf(entry.value)) }
        : {}),
    });
  }

  /**
   * The value held for `key` if it is current, else undefined (then `get` loads it): synchronous, so a hit
   * on a hot path needs no promise. Counts hits only; the `get` that follows a miss counts the miss.
   */
  peek(key: string): V | undefined {
    if (!this.enabled || !this.notifications.healthy) return undefined;
    const held = this.entries.get(key);
    if (held === undefined || !this.notifications.isCurrent(held.scope, held.stamp)) return undefined;
    this.onLookup('hit', 1, held.scope);
    return held.value;
  }

  /** The value of `key` (whose content lies in `scope`), loaded by `load` unless held for the current state. */
  async get(scope: ContentScope, key: string, load: () => Promise<V>): Promise<V> {
    const notifications = this.notifications;
    if (!this.enabled || !notifications.healthy) {
      this.onLookup('bypass', 1, scope);
      return load();
    }
    const held = this.entries.get(key);
    if (held && notifications.isCurrent(held.scope, held.stamp)) {
      this.onLookup('hit', 1, scope);
      return held.value;
    }
    const pending = this.loading.get(key);
    if (pending && notifications.isCurrent(pending.scope, pending.stamp)) {
      this.onLookup('hit', 1, scope);
      return pending.promise;
    }
    this.onLookup('miss', 1, scope);
    const stamp = notifications.stampOf(scope);
    const loading: Loading<V> = {
      scope,
      stamp,
      promise: load().then(
        (value) => {
          if (this.loading.get(key) === loading) this.loading.delete(key);
          // Kept only if no change of its scope was announced while loading (the value might predate it).
          if (notifications.isCurrent(scope, stamp)) this.entries.set(key, { scope, stamp, value });
          return value;
        },
        (error: unknown) => {
          if (this.loading.get(key) === loading) this.loading.delete(key);
          throw error;
        },
      ),
    };
    this.loading.set(key, loading);
    return loading.promise;
  }
}
