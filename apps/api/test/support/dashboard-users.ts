import { insertArticle } from '@newsroom/domain';
import type { TestApp } from './test-app';

/** An administrator and a publisher in the test database, with a token each. */
export async function createDashboardUsers({ app, db }: Pick<TestApp, 'app' | 'db'>) {
  const admin = await db
    .insertInto('users')
    .values({ email: 'admin@example.com', password_hash: 'x', role: 'admin' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const publisher = await db
    .insertInto('publishers')
    .values({ name: 'Daily Planet', approved: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  const publisherUser = await db
    .insertInto('users')
    .values({
      email: 'desk@planet.example',
      password_hash: 'x',
      role: 'publisher',
      publisher_id: publisher.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return {
    publisherId: publisher.id,
    adminToken: app.issueToken({ id: admin.id }),
    publisherToken: app.issueToken({ id: publisherUser.id }),
  };
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
