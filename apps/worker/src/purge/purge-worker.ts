import type { PurgeConfig } from '@newsroom/config';
import {
  claimDueCdnPurges,
  completeCdnPurges,
  type Db,
  deferCdnPurges,
  relayCdnPurges,
} from '@newsroom/domain';
import type { Registry } from '@newsroom/metrics';
import pino, { type Logger } from 'pino';
import { startPeriodic } from '../periodic';
import { retryDelay } from '../retry-delay';
import { cloudflarePurgeProvider } from './cloudflare-purge';
import { fastlyPurgeProvider } from './fastly-purge';
import { createPurgeMetrics, type PurgeMetrics } from './purge-metrics';
import { PurgeFailure, type PurgeProvider } from './purge-provider';
import { createRateGate, type RateGate } from './rate-gate';
import { varnishPurgeProvider } from './varnish-purge';

export interface PurgeWorkerOptions {
  config: { purge: PurgeConfig };
  db: Db;
  logger?: Logger;
  metricsRegistry?: Registry;
  /** Replaces the providers the config names (tests). */
  providers?: PurgeProvider[];
}

export interface PurgeWorker {
  providers: readonly PurgeProvider[];
  /** Relays new outbox rows and sends every due purge now (tests; production runs it every PURGE_RELAY_INTERVAL_MS). */
  runNow(): Promise<void>;
  /** A change committed: relay and send as soon as possible (see content-changes.ts). */
  wake(): void;
  close(): Promise<void>;
}

/** The providers the configuration names, in a fixed order. */
export function purgeProvidersOf(config: PurgeConfig): PurgeProvider[] {
  const providers: PurgeProvider[] = [];
  if (config.varnishUrls.length > 0) providers.push(varnishPurgeProviderOf(config));
  if (config.fastly) providers.push(fastlyPurgeProvider(config.fastly, config.timeoutMs));
  if (config.cloudflare) providers.push(cloudflarePurgeProvider(config.cloudflare, config.timeoutMs));
  return providers;
}

const varnishPurgeProviderOf = (config: PurgeConfig) =>
  varnishPurgeProvider(config.varnishUrls, config.timeoutMs);

const purgeBackoff = retryDelay({ factor: 2, jitter: 0.4, maxMs: 60_000 });
const retryBaseMs = 1_000;
/** Batches one provider sends per run at most, so one slow CDN never holds the others' purges long. */
const maxBatchesPerRun = 50;

/**
 * The CDN purge side of the worker (docs/cdn.md), one loop woken by each committed change (content-changes.ts) and
 * run every PURGE_RELAY_INTERVAL_MS:
 * - the relay turns new article-change outbox rows and site purge requests into pending purges, one row per
 *   (provider, surrogate key), coalesced (relayCdnPurges: the position is locked SKIP LOCKED, so any number of
 *   worker replicas may run);
 * - then, per provider, due purges are leased in batches of its maxKeysPerRequest, spaced to its rate limit,
 *   sent, and deleted; a failed batch is retried with backoff (or after the CDN's Retry-After).
 * Null when no provider is configured.
 */
export function createPurgeWorker(options: PurgeWorkerOptions): PurgeWorker | null {
  const { db, config } = options;
  const providers = options.providers ?? purgeProvidersOf(config.purge);
  if (providers.length === 0) return null;
  const logger = options.logger ?? pino({ level: 'silent' });
  const names = providers.map((provider) => provider.name);
  const metrics: PurgeMetrics | null = options.metricsRegistry
    ? createPurgeMetrics(options.metricsRegistry, db, names)
    : null;
  const gates = new Map<string, RateGate>(
    providers.map((provider) => [provider.name, createRateGate(provider.requestsPerSecond)]),
  );
  const leaseMs = config.purge.timeoutMs * 2 + 1_000;

  const sendDue = async (provider: PurgeProvider) => {
    for (let batch = 0; batch < maxBatchesPerRun; batch++) {
      const claimed = await claimDueCdnPurges(db, provider.name, provider.maxKeysPerRequest, leaseMs);
      if (claimed.length === 0) return;
      await gates.get(provider.name)?.pass();
      try {
        await provider.purge(claimed.map((purge) => purge.key));
      } catch (error) {
        const attempts = Math.max(...claimed.map((purge) => purge.attempts));
        const retryAfterMs = error instanceof PurgeFailure ? error.retryAfterMs : undefined;
        const delay = purgeBackoff(attempts, retryBaseMs, retryAfterMs);
        await deferCdnPurges(db, provider.name, claimed, new Date(Date.now() + delay));
        metrics?.failed(provider.name);
        logger.warn(
          { provider: provider.name, keys: claimed.length, retryInMs: delay, err: (error as Error).message },
          'CDN purge failed; retried later',
        );
        return;
      }
      await completeCdnPurges(db, provider.name, claimed);
      const now = Date.now();
      metrics?.purged(
        provider.name,
        claimed.map((purge) => Math.max(0, (now - purge.requestedAt.getTime()) / 1000)),
      );
      if (claimed.length < provider.maxKeysPerRequest) return;
    }
  };

  const loop = startPeriodic(async () => {
    let waiting = false;
    try {
      for (;;) {
        const result = await relayCdnPurges(db, names);
        if (result.expired) {
          logger.error('purge relay fell behind the article-change retention: every site list was purged');
        }
        waiting = result.waiting;
        if (!result.more) break;
      }
    } catch (error) {
      logger.warn({ err: (error as Error).message }, 'purge relay failed; next run retries');
    }
    await Promise.all(
      providers.map((provider) =>
        sendDue(provider).catch((error: unknown) =>
          logger.warn({ provider: provider.name, err: (error as Error).message }, 'purge sending failed'),
        ),
      ),
    );
    // A change committed behind an older open transaction is read once that one ends: look again soon.
    return waiting ? 'soon' : undefined;
  }, config.purge.relayIntervalMs);

  return {
    providers,
    runNow: () => loop.runNow(),
    wake: () => loop.wake(),
    close: () => loop.stop(),
  };
}
