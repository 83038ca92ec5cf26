import type { Db } from '@newsroom/domain';
import type { FeedServer } from '@newsroom/test-support';
import fc from 'fast-check';
import type { App } from '../../../src/app';
import { insertArticle, insertSite, issueSiteKey } from '../content-fixtures';
import { type Account, insertPublisher } from '../dashboard-accounts';
import type { Credentials } from './fuzz-request';
import type { Operation } from './openapi-operations';
import type { Hints } from './schema-values';

let world = 0;

/**
 * A fresh small world for one operation (a fuzzed DELETE or disable must not starve the next operation):
 * a site with a key, an article in each state hosted there, an approved publisher with a login and a
 * feed on the local feed server. Returns the credentials and the hints that point requests at them.
 */
export async function createFuzzWorld(
  app: App,
  db: Db,
  admin: Account,
  feeds: FeedServer,
  networkKey: string,
  operation: Operation,
): Promise<{ credentials: Credentials; hints: Hints }> {
  world += 1;
  const siteSlug = `fuzz-site-${world}`;
  const siteId = await insertSite(db, siteSlug);
  const siteKey = await issueSiteKey(db, siteId);
  const articles = await Promise.all(
    (['draft', 'pending', 'published', 'rejected'] as const).map((status) =>
      insertArticle(db, {
        status,
        slug: `fuzz-${world}-${status}`,
        siteIds: [siteId],
        aggregated: status === 'pending',
        tags: ['world'],
        category: 'news',
        section: 'front',
      }),
    ),
  );
  const publisher = await insertPublisher(app, db, { name: `Fuzz Publisher ${world}`, approved: true });
  await db
    .updateTable('publishers')
    .set({ feed_url: feeds.url('/feed.rss') })
    .where('id', '=', publisher.publisherId)
    .execute();

  const idsByArea: [string, string[]][] = [
    ['/api/v1/article', articles.map((article) => article.id)],
    ['/api/v1/publisher', [publisher.publisherId]],
    ['/api/v1/site', [siteId]],
  ];
  const ids = idsByArea.find(([prefix]) => operation.path.startsWith(prefix))?.[1] ?? [siteId];
  const published = articles[2]?.slug as string;
  const hints = new Map<string, fc.Arbitrary<unknown>>([
    ['id', fc.constantFrom(...ids)],
    ['keyId', fc.constant(siteKey.id)],
    ['slug', fc.constantFrom(published, siteSlug)],
    ['site', fc.constant(siteSlug)],
    ['hostSites[]', fc.constant(siteSlug)],
    ['defaultHostSites[]', fc.constant(siteSlug)],
    ['tag', fc.constant('world')],
    ['category', fc.constant('news')],
    ['section', fc.constant('front')],
    [
      'feedUrl',
      fc.constantFrom(
        feeds.url('/feed.rss'),
        feeds.url('/not-a-feed'),
        feeds.url('/missing'),
        'http://127.0.0.1:1/feed',
        'http://[::1]:1/feed',
      ),
    ],
    ['email', fc.constantFrom(admin.email, publisher.email, `new-${world}@fuzz.example`)],
    ['password', fc.string({ minLength: 12, maxLength: 72 })],
    ['fileType', fc.constantFrom('image/png', 'image/jpeg', 'image/webp', 'image/svg+xml', 'text/html')],
    ['fileName', fc.constantFrom('photo.png', 'a'.repeat(300), '../../x.png', '.png')],
  ]);
  return {
    credentials: {
      adminToken: admin.token,
      publisherToken: publisher.token,
      networkKey,
      siteKey: siteKey.key,
    },
    hints,
  };
}
