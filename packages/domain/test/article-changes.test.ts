import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  type ChangePosition,
  ChangesExpiredError,
  changeArticleStatus,
  createArticle,
  currentChangePosition,
  deleteArticle,
  deleteSite,
  editArticle,
  importFeedItems,
  pruneArticleChanges,
  readScopedChanges,
  setArticleHostSites,
} from '../src';
import { type ArticleChange, nilUuid } from '../src/changes/article-change';
import { findArticleChangesAfter } from '../src/changes/article-change.repository';
import { feedItem } from './support/feed-items';

// A test waits (bounded) while another session's open transaction holds the feed back: see the waits below.
vi.setConfig({ testTimeout: 120_000 });
const { db, url, destroy } = await createTestDatabase();
afterAll(destroy);

const [siteA, siteB] = await db
  .insertInto('sites')
  .values([
    { slug: 'a', name: 'A' },
    { slug: 'b', name: 'B' },
  ])
  .returning('id')
  .execute()
  .then((rows) => rows.map((row) => row.id) as [string, string]);

/**
 * A position after every row written so far. (The horizon-based "now" of currentChangePosition may lie before
 * recent changes while another session's transaction is open on the shared server: right for readers, who
 * only ever see changes again, but tests want exactly their own.)
 */
async function endOfOutbox(): Promise<ChangePosition> {
  const row = await db
    .selectFrom('article_changes')
    .select(sql<string>`max(xid)::text`.as('xid'))
    .executeTakeFirst();
  return { xid: row?.xid ?? '0', articleId: 'ffffffff-ffff-ffff-ffff-ffffffffffff' };
}

/**
 * Every change after `from`, once the outbox has caught up: the horizon is the oldest transaction running on
 * the whole (shared) server, so another session's transaction may hold it back (a fault test's paused connection
 * for up to the 60 s idle-in-transaction timeout). Bounded wait, 90 s.
 */
async function changesAfter(from: ChangePosition, expected: number): Promise<ArticleChange[]> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const { changes } = await findArticleChangesAfter(db, from, 1_000);
    if (changes.length >= expected || Date.now() > deadline) return changes;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const shape = (change: ArticleChange) => ({
  visibleBefore: change.visibleBefore,
  visibleAfter: change.visibleAfter,
  deleted: change.deleted,
  sitesBefore: change.sitesBefore,
  sitesAfter: change.sitesAfter,
  slugBefore: change.slugBefore,
  slugAfter: change.slugAfter,
});

const sorted = (ids: string[]) => [...ids].sort();

describe('the outbox triggers', () => {
  it('records nothing for drafts, then each change of a published article with its sites and slugs', async () => {
    const start = await endOfOutbox();
    const draft = await createArticle(db, { ...content('Quiet draft') }, ['a']);
    await editArticle(db, draft.id, { title: 'Still a draft' });
    const article = await createArticle(db, content('Harbour bridge'), ['a']);
    await changeArticleStatus(db, article.id, 'publish');
    await editArticle(db, article.id, { title: 'Harbour bridge reopens' });
    await setArticleHostSites(db, article.id, ['b']);
    await changeArticleStatus(db, article.id, 'unpublish');
    await changeArticleStatus(db, article.id, 'publish');
    await deleteArticle(db, article.id);
    await deleteArticle(db, draft.id);

    const changes = await changesAfter(start, 6);
    expect(changes.every((change) => change.articleId === article.id)).toBe(true);
    const slug = 'harbour-bridge';
    expect(changes.map(shape)).toEqual([
      { ...row(false, true, [siteA], [siteA]), slugBefore: slug, slugAfter: slug },
      { ...row(true, true, [siteA], [siteA]), slugBefore: slug, slugAfter: slug },
      { ...row(true, true, [siteA], [siteB]), slugBefore: slug, slugAfter: slug },
      { ...row(true, false, [siteB], [siteB]), slugBefore: slug, slugAfter: slug },
      { ...row(false, true, [siteB], [siteB]), slugBefore: slug, slugAfter: slug },
      { ...row(true, false, [siteB], []), deleted: true, slugBefore: slug, slugAfter: null },
    ]);
  });

  it('folds the changes of one transaction to one article into one row: before its first, after its last', async () => {
    const article = await createArticle(db, content('Folded'), ['a']);
    const start = await endOfOutbox();
    await db.transaction().execute(async (tx) => {
      await sql`update articles set status = 'published', published_at = now() where id = ${article.id}`.execute(
        tx,
      );
      await sql`delete from article_sites where article_id = ${article.id}`.execute(tx);
      await sql`insert into article_sites (article_id, site_id) values (${article.id}, ${siteB}), (${article.id}, ${siteA})`.execute(
        tx,
      );
      await sql`update articles set slug = 'folded-again' where id = ${article.id}`.execute(tx);
    });
    const changes = await changesAfter(start, 1);
    expect(changes.map(shape)).toEqual([
      {
        ...row(false, true, [siteA], sorted([siteA, siteB])),
        slugBefore: 'folded',
        slugAfter: 'folded-again',
      },
    ]);
  });

  it('records imports: nothing for pending items, one row per auto-approved item with its host sites', async () => {
    const pendingPublisher = await newPublisher(false);
    const start = await endOfOutbox();
    await importFeedItems(db, pendingPublisher, fetched([feedItem(1), feedItem(2)]));
    const publisher = await newPublisher(true);
    await importFeedItems(db, publisher, fetched([feedItem(3), feedItem(4)]));
    const changes = await changesAfter(start, 2);
    expect(changes).toHaveLength(2);
    for (const change of changes) {
      expect(shape(change)).toMatchObject(row(false, true, [], sorted([siteA, siteB])));
    }
  });

  it('records a site deletion as its articles leaving that site', async () => {
    const [doomed] = await db
      .insertInto('sites')
      .values({ slug: 'doomed', name: 'Doomed' })
      .returning('id')
      .execute()
      .then((rows) => rows.map((r) => r.id));
    const article = await createArticle(db, content('On doomed'), ['a', 'doomed']);
    await changeArticleStatus(db, article.id, 'publish');
    const start = await endOfOutbox();
    await deleteSite(db, doomed as string);
    const changes = await changesAfter(start, 1);
    expect(changes.map(shape)).toEqual([
      {
        ...row(true, true, sorted([siteA, doomed as string]), [siteA]),
        slugBefore: 'on-doomed',
        slugAfter: 'on-doomed',
      },
    ]);
  });
});

describe('reading the outbox', () => {
  it('serves nothing of a transaction before it commits, and never skips one that commits late', async () => {
    const early = await createArticle(db, content('Slow transaction'), ['a']);
    const late = await createArticle(db, content('Fast transaction'), ['a']);
    const start = await endOfOutbox();
    const slow = new pg.Client({ connectionString: url });
    await slow.connect();
    try {
      // The slow transaction takes its id first, then a later one commits while it is still open.
      await slow.query('begin');
      await slow.query(`update articles set status = 'published', published_at = now() where id = $1`, [
        early.id,
      ]);
      await changeArticleStatus(db, late.id, 'publish');
      const whileOpen = await readScopedChanges(db, start, null, 100);
      expect(whileOpen.items).toEqual([]);
      // A reader that took the cursor now must still get the slow transaction's change later.
      const cursor = whileOpen.next;
      await slow.query('commit');
      const [first, second] = await changesAfter(cursor, 2);
      expect([first?.articleId, second?.articleId]).toEqual([early.id, late.id]);
    } finally {
      await slow.end();
    }
  });

  it('shows a site reader only changes on its site, one item per article, upserts and deletes', async () => {
    const onA = await createArticle(db, content('Only on A'), ['a']);
    const onB = await createArticle(db, content('Only on B'), ['b']);
    const start = await endOfOutbox();
    await changeArticleStatus(db, onA.id, 'publish');
    await editArticle(db, onA.id, { title: 'Only on A, edited' });
    await changeArticleStatus(db, onB.id, 'publish');
    await setArticleHostSites(db, onB.id, ['a']);
    await setArticleHostSites(db, onB.id, ['b']);
    await changesAfter(start, 5);

    const forA = await readScopedChanges(db, start, siteA, 100);
    expect(
      forA.items.map(({ articleId, slug, currentVersion }) => [articleId, slug, currentVersion !== null]),
    ).toEqual([
      [onA.id, 'only-on-a', true],
      [onB.id, 'only-on-b', false],
    ]);
    expect(forA.hasMore).toBe(false);
    const forB = await readScopedChanges(db, start, siteB, 100);
    expect(forB.items.map((item) => [item.articleId, item.currentVersion !== null])).toEqual([
      [onB.id, true],
    ]);
    const again = await readScopedChanges(db, forA.next, siteA, 100);
    expect(again.items).toEqual([]);
  });

  it('pages by limit, and a small scan limit pages through other sites quickly', async () => {
    const start = await endOfOutbox();
    for (const title of ['One', 'Two', 'Three']) {
      const article = await createArticle(db, content(`Paged ${title}`), ['b']);
      await changeArticleStatus(db, article.id, 'publish');
    }
    await changesAfter(start, 3);
    const first = await readScopedChanges(db, start, null, 2);
    expect(first.items).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    const rest = await readScopedChanges(db, first.next, null, 2);
    expect(rest.items).toHaveLength(1);
    expect(rest.hasMore).toBe(false);

    const scanned = await readScopedChanges(db, start, siteA, 100, 2);
    expect(scanned).toMatchObject({ items: [], hasMore: true, next: first.next });
  });

  it('prunes whole transactions older than retention and refuses positions before the cut', async () => {
    const article = await createArticle(db, content('Old news'), ['a']);
    const before = await endOfOutbox();
    await changeArticleStatus(db, article.id, 'publish');
    await changesAfter(before, 1);
    await sql`update article_changes set changed_at = now() - interval '40 days' where article_id = ${article.id}`.execute(
      db,
    );
    // Retention cuts a prefix of the outbox's order: every earlier transaction goes too.
    expect(await pruneArticleChanges(db, new Date(Date.now() - 30 * 86_400_000))).toBeGreaterThanOrEqual(1);
    expect(await findArticleChangesAfter(db, { xid: '0', articleId: nilUuid }, 1_000)).toMatchObject({
      changes: [],
    });
    await expect(readScopedChanges(db, before, null, 10)).rejects.toBeInstanceOf(ChangesExpiredError);
    await expect(readScopedChanges(db, await currentChangePosition(db), null, 10)).resolves.toMatchObject({
      hasMore: false,
    });
    expect(await pruneArticleChanges(db, new Date(Date.now() - 30 * 86_400_000))).toBe(0);
  });
});

function content(title: string) {
  return {
    title,
    body: `<p>${title}</p>`,
    tags: [],
    category: null,
    section: null,
    thumbnail: null,
    image: null,
  };
}

function row(visibleBefore: boolean, visibleAfter: boolean, sitesBefore: string[], sitesAfter: string[]) {
  return {
    visibleBefore,
    visibleAfter,
    deleted: false,
    sitesBefore: sorted(sitesBefore),
    sitesAfter: sorted(sitesAfter),
  };
}

async function newPublisher(autoApprove: boolean): Promise<string> {
  const { id } = await db
    .insertInto('publishers')
    .values({
      name: 'Daily Planet',
      feed_url: 'https://planet.example/feed',
      default_tags: [],
      approved: true,
      auto_approve: autoApprove,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('publisher_default_sites')
    .values([
      { publisher_id: id, site_id: siteA },
      { publisher_id: id, site_id: siteB },
    ])
    .execute();
  return id;
}

function fetched(items: ReturnType<typeof feedItem>[]) {
  return { notModified: false as const, items, etag: null, lastModified: null };
}
