import { digestApiKey, type ListingOutline } from '@newsroom/domain';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { cacheLookupCounter } from '../metrics/api-metrics';
import { ArticleJsonCache } from './article-json-cache';
import type { ClientAnswer } from './client-answer';
import type { ClientScope, KeyGrant } from './client-scope';
import { createClientSerializers } from './client-serializers';
import { ContentNotifications } from './content-notifications';
import { freshnessOf } from './http-caching';
import type { ClientReadSources } from './read-sources';
import { type ContentDatabase, primaryContent, ReplicaContent } from './replica/content-database';
import { VersionedMemo } from './versioned-memo';

/** The client read path's in-process state: the content notifications and the caches they keep honest. */
export interface ClientContent {
  notifications: ContentNotifications;
  networkKeyDigest: Buffer;
  /** What every read takes (read-sources.ts): the database, the caches below, the JSON writers, freshness. */
  reads: ClientReadSources;
  /** Presented key -> what it grants (null: nothing; see client-scope.ts). */
  keyGrants: VersionedMemo<KeyGrant | null>;
  /** Site slug -> id, for the network key's ?site= filter. */
  siteIds: VersionedMemo<string>;
  /** Every origin some site allows: what a CORS preflight (no key) is answered for. */
  allowedOrigins: VersionedMemo<ReadonlySet<string>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    clientContent: ClientContent;
  }
  interface FastifyRequest {
    /** Set by the client key guard on every /client request that gets past it. */
    clientScope: ClientScope;
  }
}

const responseCacheBytes = 64 * 1024 * 1024;

export const clientContentPlugin = fp(async (app: FastifyInstance) => {
  const notifications = new ContentNotifications({
    // LISTEN needs a session of its own: never through a transaction-mode pooler (DATABASE_DIRECT_URL).
    connectionString: app.config.databaseDirectUrl,
    connectTimeoutMs: app.config.databaseTimeouts.connectMs,
    onError: (error) =>
      app.log.warn(
        { err: error },
        'content notifications lost: client caches bypassed until the connection returns',
      ),
  });
  await notifications.start();
  app.addHook('onClose', () => notifications.close());
  const content = await contentDatabaseOf(app);
  app.addHook('onClose', () => content.close());

  const counted = (cache: string, bySite = false) => cacheLookupCounter(app.metrics, cache, { bySite });
  app.decorate('clientContent', {
    notifications,
    networkKeyDigest: digestApiKey(app.config.apiKey),
    reads: {
      db: app.db,
      content,
      serializers: createClientSerializers(app.config.imgproxy),
      freshness: freshnessOf(app.config.client),
      caches: {
        notifications,
        // Serialised responses by route + scope + parameters (null: a 404). Switched off by CLIENT_CACHE=off.
        responses: new VersionedMemo<ClientAnswer | null>(notifications, {
          enabled: app.config.client.responseCache,
          max: 10_000,
          maxSize: responseCacheBytes,
          sizeOf: (response) => response?.body.length ?? 1,
          onLookup: counted('responses', true),
        }),
        // Listing sizes and anchors (small; always kept: they make totals and deep pages cheap), and a
        // search's ranked ids (up to 500 each): bounded by their count, about 100 bytes each (~20 MB at most).
        outlines: new VersionedMemo<ListingOutline>(notifications, {
          max: 1_000,
          maxSize: 200_000,
          sizeOf: (outline) => 1 + outline.anchors.length + (outline.ranked?.length ?? 0),
          onLookup: counted('outlines'),
        }),
        // Serialised articles by row version, reused by page reads whether or not the response cache is on.
        articleJson: new ArticleJsonCache(app.config.client.articleCacheBytes, counted('article_json')),
      },
    },
    keyGrants: new VersionedMemo<KeyGrant | null>(notifications, {
      max: 10_000,
      onLookup: counted('key_owners'),
    }),
    siteIds: new VersionedMemo<string>(notifications, { max: 1_000, onLookup: counted('site_ids') }),
    allowedOrigins: new VersionedMemo<ReadonlySet<string>>(notifications, { max: 1 }),
  });
  app.decorateRequest('clientScope', null as unknown as ClientScope);
});

/**
 * Where the client content reads run: the replica of DATABASE_REPLICA_URL (probed once here, bounded, then every
 * DATABASE_REPLICA_PROBE_MS), else the primary.
 */
async function contentDatabaseOf(app: FastifyInstance): Promise<ContentDatabase> {
  const { replicaDb, config, metrics } = app;
  if (!replicaDb || !config.replica) return primaryContent(app.db);
  const content = new ReplicaContent({
    primary: app.db,
    replica: replicaDb,
    maxLagMs: config.replica.maxLagMs,
    probeMs: config.replica.probeMs,
    onRoute: metrics && ((route) => metrics.clientContentReads.inc({ route })),
    onLag: metrics && ((bytes) => metrics.replicaLagBytes.set(bytes)),
    onState: (up, error) => {
      metrics?.replicaUp.set(up ? 1 : 0);
      if (up) app.log.info('read replica answering: client content reads go to it');
      else app.log.warn({ err: error }, 'read replica down: client content reads go to the primary');
    },
  });
  await content.start();
  return content;
}
