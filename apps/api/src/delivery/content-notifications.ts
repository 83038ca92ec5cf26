import { randomUUID } from 'node:crypto';
import { contentChangedChannel, PostgresListener, type PostgresListenerOptions } from '@newsroom/domain';

export type ContentNotificationsOptions = Pick<
  PostgresListenerOptions,
  'connectionString' | 'heartbeatMs' | 'retryMs' | 'maxRetryMs' | 'connectTimeoutMs'
> & {
  /** Told when a listening connection is lost (caches are bypassed until it returns). */
  onError?: (error: Error) => void;
};

/**
 * What a `content_changed` payload says changed: `<txid>` alone, everything (sites, keys, truncates, or more
 * sites than a payload holds); `<txid>:<site id>,<site id>,...`, the content of those sites and of the
 * network-wide listings only (an empty list: the network listings only, e.g. an article hosted nowhere).
 * Sent by the triggers of migrations 2026-11-22T0300 and 2026-11-23T1950.
 */
export function parseContentChange(payload: string): { token: string; siteIds: string[] | 'all' } {
  const colon = payload.indexOf(':');
  if (colon === -1) return { token: payload, siteIds: 'all' };
  const list = payload.slice(colon + 1);
  return { token: payload.slice(0, colon), siteIds: list === '' ? [] : list.split(',') };
}

/**
 * A content scope: one site's content (its id), or the whole network (null). Network-scoped values (the
 * network key's listings, slugs read across all sites) change with any site's content.
 */
export type ContentScope = string | null;

/**
 * The scope of values only a change of everything can alter: site keys' owners and site slugs (writes to
 * `sites` and `site_api_keys` always notify everything). Never a site id, so no site change moves its stamp.
 */
export const siteAccessScope: ContentScope = '*site-access';

/**
 * The state of one scope's content as this replica knows it: equal stamps (see `sameState`) mean no change
 * this replica has heard of happened in between.
 */
export interface ContentStamp {
  readonly all: number;
  readonly scope: number;
}

/**
 * This replica's view of "has client-visible content changed, and where?": a dedicated Postgres connection
 * that LISTENs to `content_changed` (sent by triggers on commit of any change to articles, host sites, sites
 * or keys, naming the sites concerned when it can).
 *
 * - `stampOf(scope)` moves on every change of that scope's content: a change naming site A moves A's stamp
 *   and the network's, not site B's; a change of everything (and every loss or return of the connection,
 *   when changes may have been missed) moves them all. Caches keep each entry with the stamp it was loaded at.
 * - `tokenOf(scope)` names the scope's content state the same way on every replica that heard the same
 *   changes (transaction ids), or from a random value until its first change; null while down.
 * - `healthy` is false while the connection is down: caches must then not be used, so nothing can be
 *   served stale for longer than it takes to notice (one heartbeat).
 */
export class ContentNotifications {
  /** Raised by every change of everything, and when the connection is lost or re-established. */
  private allGeneration = 0;
  /** Raised by every change (network-wide listings span all sites). */
  private networkGeneration = 0;
  private readonly siteGenerations = new Map<string, number>();
  private allToken: string | null = null;
  private networkToken: string | null = null;
  private readonly siteTokens = new Map<string, string>();
  private readonly listener: PostgresListener;

  constructor(options: ContentNotificationsOptions) {
    const { onError, ...connection } = options;
    this.listener = new PostgresListener({
      ...connection,
      channel: contentChangedChannel,
      applicationName: 'newsroom-api-changes',
      onNotification: (payload) => this.heard(payload ?? randomUUID()),
      // Changes may have happened while we were not listening: start from a new state everywhere.
      onListening: () => this.changedEverything(randomUUID()),
      // Stop trusting caches until it listens again.
      onDown: (error) => {
        this.changedEverything(null);
        if (error) onError?.(error);
      },
    });
  }

  get healthy(): boolean {
    return this.allToken !== null;
  }

  stampOf(scope: ContentScope): ContentStamp {
    const local = scope === null ? this.networkGeneration : (this.siteGenerations.get(scope) ?? 0);
    return { all: this.allGeneration, scope: local };
  }

  /** Whether `stamp` (from `stampOf(scope)`) still names the scope's current state. */
  isCurrent(scope: ContentScope, stamp: ContentStamp): boolean {
    if (stamp.all !== this.allGeneration) return false;
    const local = scope === null ? this.networkGeneration : (this.siteGenerations.get(scope) ?? 0);
    return stamp.scope === local;
  }

  tokenOf(scope: ContentScope): string | null {
    if (this.allToken === null) return null;
    if (scope === null) return this.networkToken ?? this.allToken;
    const site = this.siteTokens.get(scope);
    return site === undefined ? this.allToken : `${this.allToken}.${site}`;
  }

  /** Connects (one attempt; on failure it keeps retrying in the background and resolves anyway). */
  start(): Promise<void> {
    return this.listener.start();
  }

  close(): Promise<void> {
    return this.listener.close();
  }

  private heard(payload: string): void {
    const { token, siteIds } = parseContentChange(payload);
    this.networkGeneration++;
    this.networkToken = token;
    if (siteIds === 'all') {
      this.changedEverything(token);
      return;
    }
    for (const siteId of siteIds) {
      this.siteGenerations.set(siteId, (this.siteGenerations.get(siteId) ?? 0) + 1);
      this.siteTokens.set(siteId, token);
    }
  }

  /** Everything may have changed: every stamp moves; per-site state restarts (a few entries per site). */
  private changedEverything(token: string | null): void {
    this.allGeneration++;
    this.networkGeneration++;
    this.allToken = token;
    this.networkToken = null;
    this.siteTokens.clear();
    // Generations keep counting (a cleared map would hand out stamps already used), tokens restart.
  }
}
