import { insertArticle } from '@newsroom/domain';
import { insertAdmin, insertPublisher } from './dashboard-accounts';
import type { TestApp } from './test-app';

/** An administrator and a publisher in the test database, with a token each. */
export async function createDashboardUsers({ app, db }: Pick<TestApp, 'app' | 'db'>) {
  const admin = await insertAdmin(app, db);
  const publisher = await insertPublisher(app, db, { name: 'Daily Planet', approved: true });
  return { publisherId: publisher.publisherId, adminToken: admin.token, publisherToken: publisher.token };
}

let guid = 0;
/** An article as the feed import would save it: aggregated, attributed, pending review unless said otherwise. */
export async function insertImportedArticle(
  { db }: Pick<TestApp, 'db'>,
  publisherId: string,
  title: string,
  status: 'pending' | 'published' = 'pending',
) {
  guid += 1;
  return insertArticle(db, {
    title,
    slug: `imported-${guid}-${Date.now()}`,
    body: '<p>From the feed</p>',
    status,
    is_aggregated: true,
    source: 'Daily Planet',
    source_url: `https://planet.example/story/${guid}`,
    rss_feed_guid: `guid-${guid}`,
    publisher_id: publisherId,
    published_at: status === 'published' ? new Date() : null,
  });
}
