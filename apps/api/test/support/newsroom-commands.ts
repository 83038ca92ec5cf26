import { importFeedItems } from '@newsroom/domain';
import fc from 'fast-check';
import { expect } from 'vitest';
import { insertSite, issueSiteKey } from './content-fixtures';
import { createDashboardUsers } from './dashboard-users';
import type { TestApp } from './test-app';

// What a newsroom does to its content, as fast-check commands for the change feed's mirror property
// (apps/api/test/client/change-feed-mirror.test.ts, and the SDK's packages/sdk/test/sdk-changes.test.ts):
// creates, edits, publishes, unpublishes, deletions, host-site moves, site renames, imports, approvals,
// rejections, and syncs of the mirrors. Writes go through the real API (app.inject) and the feed import's
// domain function.

/** A child site's copy that can catch up: reads the change feed (at most `limit` a page) until caught up. */
export interface Syncable {
  sync(limit: number): Promise<void>;
}

const siteSlugs = ['north', 'south', 'east'] as const;
// Commands pick an article by index into what exists (modulo), so every generated sequence is runnable.
const sites = fc.subarray([...siteSlugs] as string[]);
const pick = fc.nat(1_000);
export const command = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    sites,
    title: fc.constantFrom('Flood', 'Vote', 'Match'),
  }),
  fc.record({ kind: fc.constant('edit' as const), pick, title: fc.constantFrom('Update', 'Correction') }),
  fc.record({ kind: fc.constant('publish' as const), pick }),
  fc.record({ kind: fc.constant('unpublish' as const), pick }),
  fc.record({ kind: fc.constant('delete' as const), pick }),
  fc.record({ kind: fc.constant('move' as const), pick, sites }),
  fc.record({
    kind: fc.constant('import' as const),
    count: fc.integer({ min: 1, max: 4 }),
    auto: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('review' as const), pick, approve: fc.boolean() }),
  fc.record({ kind: fc.constant('renameSite' as const) }),
  fc.record({ kind: fc.constant('sync' as const), limit: fc.integer({ min: 1, max: 5 }) }),
);
export type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

/**
 * Three sites (north, south, east) and two publishers (auto-approving and reviewed, both hosting on north
 * and east) on the test app's database; `northKey` is a site key of north; `run` applies commands.
 */
export async function createNewsroomScenario(testApp: TestApp) {
  const { app, db } = testApp;
  const { adminToken } = await createDashboardUsers(testApp);
  const siteIds = new Map<string, string>();
  for (const slug of siteSlugs) siteIds.set(slug, await insertSite(db, slug));
  const northKey = (await issueSiteKey(db, siteIds.get('north') as string)).key;

  async function newPublisher(autoApprove: boolean): Promise<string> {
    const { id } = await db
      .insertInto('publishers')
      .values({
        name: autoApprove ? 'Wire' : 'Gazette',
        feed_url: 'https://feeds.example/rss',
        default_tags: [],
        approved: true,
        auto_approve: autoApprove,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('publisher_default_sites')
      .values(['north', 'east'].map((slug) => ({ publisher_id: id, site_id: siteIds.get(slug) as string })))
      .execute();
    return id;
  }
  const publishers = { auto: await newPublisher(true), review: await newPublisher(false) };

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const admin = (method: Method, url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${adminToken}` },
      ...(payload ? { payload } : {}),
    });

  let guid = 0;
  let eastSlug = 'east';
  const articleIds: string[] = [];

  async function run(commands: Command[], mirrors: Syncable[]): Promise<void> {
    const chosen = (index: number) => articleIds[index % articleIds.length];
    for (const step of commands) {
      switch (step.kind) {
        case 'create': {
          const hostSites = step.sites.map((slug) => (slug === 'east' ? eastSlug : slug));
          const response = await admin('POST', '/article', {
            title: step.title,
            body: '<p>Text</p>',
            hostSites,
          });
          expect(response.statusCode, response.body).toBe(201);
          articleIds.push(response.json().id);
          break;
        }
        case 'edit':
        case 'publish':
        case 'unpublish':
        case 'delete':
        case 'move':
        case 'review': {
          const id = chosen(step.pick);
          if (!id) break;
          const response = await (step.kind === 'edit'
            ? admin('PUT', `/article/${id}`, { title: step.title })
            : step.kind === 'publish' || step.kind === 'unpublish'
              ? admin('PUT', `/article/${step.kind}/${id}`)
              : step.kind === 'review'
                ? admin('PUT', `/article/${step.approve ? 'approve' : 'reject'}/${id}`)
                : step.kind === 'delete'
                  ? admin('DELETE', `/article/${id}`)
                  : admin('POST', `/article/host-site/${id}`, {
                      hostSites: step.sites.map((slug) => (slug === 'east' ? eastSlug : slug)),
                    }));
          // 404 (deleted earlier) and 409 (a transition the article's status refuses) are part of the game.
          expect([200, 204, 404, 409], response.body).toContain(response.statusCode);
          break;
        }
        case 'import': {
          const items = Array.from({ length: step.count }, () => {
            guid += 1;
            return {
              guid: `mirror-${guid}`,
              title: `Wire story ${guid}`,
              body: `<p>Story ${guid}</p>`,
              url: `https://feeds.example/${guid}`,
              thumbnail: null,
              image: null,
              categories: [],
              publishedAt: new Date(),
            };
          });
          const publisherId = step.auto ? publishers.auto : publishers.review;
          await importFeedItems(db, publisherId, {
            notModified: false,
            items,
            etag: null,
            lastModified: null,
          });
          const imported = await db
            .selectFrom('articles')
            .select('id')
            .where(
              'rss_feed_guid',
              'in',
              items.map((item) => item.guid),
            )
            .execute();
          articleIds.push(...imported.map((row) => row.id));
          break;
        }
        case 'renameSite': {
          const next = eastSlug === 'east' ? 'east-renamed' : 'east';
          await db.updateTable('sites').set({ slug: next }).where('slug', '=', eastSlug).execute();
          eastSlug = next;
          break;
        }
        case 'sync':
          for (const mirror of mirrors) await mirror.sync(step.limit);
          break;
      }
    }
  }

  return { northKey, run };
}
