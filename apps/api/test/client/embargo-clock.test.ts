import {
  changeArticleStatus,
  createArticle,
  ManualClock,
  runDueScheduledActions,
  scheduleArticleAction,
  setArticleEmbargo,
  setArticleHostSites,
} from '@newsroom/domain';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type ChangeItem, followChanges } from '../support/change-feed-reader';
import { insertSite, issueSiteKey } from '../support/content-fixtures';
import { createTestApp } from '../support/test-app';

// The embargo and scheduling property, across every child-site route, with a clock moved by hand: random
// schedules, embargoes (on drafts and on published articles) and publishes; at every instant the scheduler
// runs what is due and then no route (lists, by slug, /all, search, tag/category/section counts, RSS, JSON
// Feed, both sitemaps, the change feed) returns an article before its time, and every route returns it after.

vi.setConfig({ testTimeout: 150_000 });
const { app, db, close } = await createTestApp({ env: { RATE_LIMIT_CLIENT_ALL: 'off' } });
afterAll(close);
const siteId = await insertSite(db, 'wire');
await db
  .updateTable('sites')
  .set({ article_url_template: 'https://wire.example/{slug}', public_base_url: 'https://wire.example' })
  .where('id', '=', siteId)
  .execute();
const key = (await issueSiteKey(db, siteId)).key;

const get = (url: string) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });
async function read(url: string) {
  const response = await get(url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response;
}

type Plan =
  | { kind: 'scheduled'; at: number }
  | { kind: 'embargoed-draft'; embargo: number; after: number }
  | { kind: 'embargoed-published'; embargo: number }
  | { kind: 'now' }
  | { kind: 'never' };

const minute = 60_000;
const planArbitrary: fc.Arbitrary<Plan> = fc.oneof(
  fc.record({ kind: fc.constant('scheduled' as const), at: fc.integer({ min: 1, max: 40 }) }),
  fc.record({
    kind: fc.constant('embargoed-draft' as const),
    embargo: fc.integer({ min: 1, max: 40 }),
    after: fc.integer({ min: 0, max: 5 }),
  }),
  fc.record({ kind: fc.constant('embargoed-published' as const), embargo: fc.integer({ min: 1, max: 40 }) }),
  fc.constant({ kind: 'now' as const }),
  fc.constant({ kind: 'never' as const }),
);

/** Minutes after the start when the article must appear (null: never). */
const appearsAt = (plan: Plan): number | null =>
  plan.kind === 'scheduled'
    ? plan.at
    : plan.kind === 'embargoed-draft'
      ? plan.embargo + plan.after
      : plan.kind === 'embargoed-published'
        ? plan.embargo
        : plan.kind === 'now'
          ? 0
          : null;

interface Seeded {
  token: string;
  slug: string;
  appearsAt: number | null;
}

let scenario = 0;
async function seed(plans: Plan[], clock: ManualClock): Promise<Seeded[]> {
  scenario++;
  const seeded: Seeded[] = [];
  for (const [index, plan] of plans.entries()) {
    const token = `zq${scenario}x${index}${plan.kind.replace(/-/g, '')}`;
    const article = await createArticle(db, {
      title: `Story ${token}`,
      body: `<p>Body ${token}</p>`,
      tags: [token],
      category: token,
      section: token,
      thumbnail: null,
      image: null,
    });
    await setArticleHostSites(db, article.id, ['wire']);
    const now = clock.now();
    const at = (minutes: number) => new Date(now.getTime() + minutes * minute);
    if (plan.kind === 'scheduled') {
      await scheduleArticleAction(
        db,
        { articleId: article.id, kind: 'publish', dueAt: at(plan.at) },
        null,
        now,
      );
    } else if (plan.kind === 'embargoed-draft') {
      await setArticleEmbargo(db, article.id, at(plan.embargo), null, now);
      const dueAt = at(plan.embargo + plan.after);
      await scheduleArticleAction(db, { articleId: article.id, kind: 'publish', dueAt }, null, now);
    } else if (plan.kind === 'embargoed-published') {
      await changeArticleStatus(db, article.id, 'publish', now);
      await setArticleEmbargo(db, article.id, at(plan.embargo), null, now);
    } else if (plan.kind === 'now') {
      await changeArticleStatus(db, article.id, 'publish', now);
    }
    seeded.push({ token, slug: article.slug, appearsAt: appearsAt(plan) });
  }
  return seeded;
}

/** Which of `articles` each route shows now (by token or slug). */
async function visibleOnRoutes(articles: Seeded[]): Promise<Record<string, Set<string>>> {
  const seen: Record<string, Set<string>> = {};
  const mark = (route: string, found: (article: Seeded) => boolean) => {
    seen[route] = new Set(articles.filter(found).map((article) => article.token));
  };
  const posts = (await read('/posts?limit=50')).json().data.map((a: { slug: string }) => a.slug);
  mark('/posts', (a) => posts.includes(a.slug));
  const all = (await read('/all')).json().data.map((a: { slug: string }) => a.slug);
  mark('/all', (a) => all.includes(a.slug));
  const bySlug = await Promise.all(articles.map(async (a) => (await get(`/article/${a.slug}`)).statusCode));
  mark('/article/:slug', (a) => bySlug[articles.indexOf(a)] === 200);
  const searched = await Promise.all(
    articles.map(async (a) => (await read(`/posts?q=${a.token}`)).json().data.length),
  );
  mark('/posts?q=', (a) => (searched[articles.indexOf(a)] ?? 0) > 0);
  for (const taxonomy of ['tags', 'categories', 'sections']) {
    const text = (await read(`/${taxonomy}`)).body.toLowerCase();
    mark(`/${taxonomy}`, (a) => text.includes(a.token));
  }
  for (const feed of ['/feed.xml', '/feed.json', '/sitemap.xml?page=1', '/sitemap-news.xml']) {
    const text = (await read(feed)).body;
    mark(feed, (a) => text.includes(a.slug));
  }
  return seen;
}

/** Every route shows exactly the articles whose time has come (the caches may take a moment to hear of it). */
async function expectExactlyDue(articles: Seeded[], minutesIn: number) {
  const due = articles.filter((a) => a.appearsAt !== null && a.appearsAt <= minutesIn).map((a) => a.token);
  const early = (seen: Record<string, Set<string>>) =>
    Object.entries(seen).flatMap(([route, tokens]) =>
      [...tokens].filter((token) => !due.includes(token)).map((token) => `${route}: ${token}`),
    );
  let seen = await visibleOnRoutes(articles);
  // Never early, not even once: whatever a cache holds, the database never had it visible before its time.
  expect(early(seen), `at +${minutesIn} min`).toEqual([]);
  const missing = () =>
    Object.entries(seen).flatMap(([route, tokens]) =>
      due.filter((token) => !tokens.has(token)).map((token) => `${route}: ${token}`),
    );
  const deadline = Date.now() + 5_000;
  while (missing().length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    seen = await visibleOnRoutes(articles);
    expect(early(seen), `at +${minutesIn} min`).toEqual([]);
  }
  expect(missing(), `at +${minutesIn} min`).toEqual([]);
}

describe('embargo and schedules under a hand-moved clock', () => {
  it('no route shows an article before its time, and every route shows it after', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(planArbitrary, { minLength: 3, maxLength: 5 }), async (plans) => {
        // Hours in the past, so every published date is one the feeds and sitemaps list.
        const clock = new ManualClock(Date.now() - 3 * 3600_000);
        const start = clock.now().getTime();
        const since = (await get('/changes')).json().meta.next as string;
        const articles = await seed(plans, clock);
        const instants = [
          ...new Set(
            articles
              .flatMap((a) => (a.appearsAt === null ? [] : [a.appearsAt - 0.5, a.appearsAt]))
              .filter((m) => m >= 0)
              .concat([0, 50]),
          ),
        ].sort((a, b) => a - b);
        for (const minutesIn of instants) {
          clock.set(start + minutesIn * minute);
          await runDueScheduledActions(db, clock);
          await expectExactlyDue(articles, minutesIn);
        }
        // The change feed: every article that appeared has an upsert, nothing else does.
        const expected = articles.filter((a) => a.appearsAt !== null);
        const { items } = await followChanges(get, since, { expected: expected.length });
        const upserted = new Set(
          items
            .filter((item: ChangeItem) => item.type === 'upsert')
            .map((item) => articles.find((a) => a.slug === item.slug)?.token),
        );
        expect([...upserted].filter(Boolean).sort()).toEqual(expected.map((a) => a.token).sort());
      }),
      { numRuns: 4, seed: Number(process.env.PROPERTY_SEED ?? 29), endOnFailure: true },
    );
  });
});
