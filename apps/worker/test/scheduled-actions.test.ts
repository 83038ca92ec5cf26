import {
  ArticleEmbargoedError,
  changeArticleStatus,
  createArticle,
  createDb,
  createRelease,
  createWebhookEndpoint,
  deleteArticle,
  getArticle,
  getRelease,
  getScheduledAction,
  ManualClock,
  relayArticleChanges,
  runDueScheduledActions,
  scheduleArticleAction,
  setArticleEmbargo,
  setArticleHostSites,
} from '@newsroom/domain';
import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

// The scheduler's rules on a real Postgres, driven by a hand-moved clock: go-live through the same transition
// as a manual publish (its outbox row in the same transaction), failures with reasons, embargoes, releases
// all-or-nothing, and concurrent runners that never run an action twice.

const { db, url, destroy } = await createTestDatabase();
afterAll(destroy);
await db.insertInto('sites').values({ slug: 'metro', name: 'Metro' }).execute();

const t0 = new Date('2030-01-01T05:00:00Z');
const clock = new ManualClock(t0);
const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);

async function draft(title: string) {
  const article = await createArticle(db, {
    title,
    body: '<p>x</p>',
    tags: [],
    category: null,
    section: null,
    thumbnail: null,
    image: null,
  });
  await setArticleHostSites(db, article.id, ['metro']);
  return article.id;
}

const outboxOf = (articleId: string) =>
  db
    .selectFrom('article_changes')
    .select([sql<string>`xid::text`.as('xid'), 'visible_before', 'visible_after'])
    .where('article_id', '=', articleId)
    .orderBy('xid')
    .execute();

describe('scheduled actions', () => {
  it('publishes at its time, not before, with its outbox row, ran time and lateness', async () => {
    const id = await draft('Goes live at six');
    const action = await scheduleArticleAction(
      db,
      { articleId: id, kind: 'publish', dueAt: at(60) },
      null,
      clock.now(),
    );
    expect(action).toMatchObject({ status: 'scheduled', kind: 'publish', articleTitle: 'Goes live at six' });

    clock.set(at(59));
    expect(await runDueScheduledActions(db, clock)).toMatchObject({ done: 0, failed: 0 });
    expect((await getArticle(db, id)).status).toBe('draft');
    expect(await outboxOf(id)).toEqual([]);

    clock.set(at(60).getTime() + 1_500);
    expect(await runDueScheduledActions(db, clock)).toMatchObject({ done: 1, failed: 0 });
    const article = await getArticle(db, id);
    expect(article.status).toBe('published');
    expect(article.publishedAt?.getTime()).toBe(clock.now().getTime());
    expect(await outboxOf(id)).toMatchObject([{ visible_before: false, visible_after: true }]);
    const ran = await getScheduledAction(db, action.id);
    expect(ran).toMatchObject({ status: 'done', latenessMs: 1_500, failureReason: null });
    expect(ran.ranAt?.getTime()).toBe(clock.now().getTime());
  });

  it('records why an action failed: the article was deleted, or the transition is not allowed', async () => {
    const gone = await draft('Deleted before its time');
    const live = await draft('Already live');
    await changeArticleStatus(db, live, 'publish', clock.now());
    const first = await scheduleArticleAction(
      db,
      { articleId: gone, kind: 'publish', dueAt: at(70) },
      null,
      clock.now(),
    );
    const second = await scheduleArticleAction(
      db,
      { articleId: live, kind: 'publish', dueAt: at(70) },
      null,
      clock.now(),
    );
    await deleteArticle(db, gone);
    clock.set(at(70));
    expect(await runDueScheduledActions(db, clock)).toMatchObject({ done: 0, failed: 2 });
    expect(await getScheduledAction(db, first.id)).toMatchObject({
      status: 'failed',
      failureReason: 'The article was deleted',
      articleTitle: null,
    });
    expect((await getScheduledAction(db, second.id)).failureReason).toMatch(
      /Cannot publish an article that is published/,
    );
  });

  it('runs actions due while nothing ran, in due order, and says how late', async () => {
    const id = await draft('Up and down');
    const up = await scheduleArticleAction(
      db,
      { articleId: id, kind: 'publish', dueAt: at(80) },
      null,
      clock.now(),
    );
    const down = await scheduleArticleAction(
      db,
      { articleId: id, kind: 'unpublish', dueAt: at(81) },
      null,
      clock.now(),
    );
    clock.set(at(90));
    await runDueScheduledActions(db, clock);
    expect((await getArticle(db, id)).status).toBe('draft');
    expect((await getScheduledAction(db, up.id)).latenessMs).toBe(10 * 60_000);
    expect((await getScheduledAction(db, down.id)).latenessMs).toBe(9 * 60_000);
    // One transaction ran both: the outbox folds them into one row that no reader derives an event from (the
    // article was never visible to anyone).
    expect(await outboxOf(id)).toMatchObject([{ visible_before: false, visible_after: false }]);
  });
});

describe('embargo', () => {
  it('refuses to publish before the embargo; a scheduled publish at the embargo lifts it', async () => {
    const id = await draft('Agency report');
    await setArticleEmbargo(db, id, at(200), null, clock.now());
    await expect(changeArticleStatus(db, id, 'publish', clock.now())).rejects.toBeInstanceOf(
      ArticleEmbargoedError,
    );
    await expect(
      scheduleArticleAction(db, { articleId: id, kind: 'publish', dueAt: at(199) }, null, clock.now()),
    ).rejects.toBeInstanceOf(ArticleEmbargoedError);
    // The database refuses any other writer too.
    await expect(
      db
        .updateTable('articles')
        .set({ status: 'published', published_at: new Date() })
        .where('id', '=', id)
        .execute(),
    ).rejects.toThrow(/articles_published_not_embargoed/);
    await scheduleArticleAction(db, { articleId: id, kind: 'publish', dueAt: at(200) }, null, clock.now());
    clock.set(at(200));
    await runDueScheduledActions(db, clock);
    expect(await getArticle(db, id)).toMatchObject({ status: 'published', embargoUntil: null });
  });

  it('hides a published article now and brings it back at the embargo, each with its own outbox row', async () => {
    const id = await draft('Pulled back');
    await changeArticleStatus(db, id, 'publish', clock.now());
    const embargoed = await setArticleEmbargo(db, id, at(300), null, clock.now());
    expect(embargoed).toMatchObject({ status: 'draft' });
    expect(embargoed.embargoUntil?.getTime()).toBe(at(300).getTime());
    expect((await outboxOf(id)).map((row) => row.visible_after)).toEqual([true, false]);
    clock.set(at(299));
    await runDueScheduledActions(db, clock);
    expect((await getArticle(db, id)).status).toBe('draft');
    clock.set(at(300));
    await runDueScheduledActions(db, clock);
    expect((await getArticle(db, id)).status).toBe('published');
    expect((await outboxOf(id)).map((row) => row.visible_after)).toEqual([true, false, true]);
  });

  it('moves a scheduled publish due before a new embargo to the embargo', async () => {
    const id = await draft('Moved');
    const action = await scheduleArticleAction(
      db,
      { articleId: id, kind: 'publish', dueAt: at(400) },
      null,
      clock.now(),
    );
    await setArticleEmbargo(db, id, at(450), null, clock.now());
    expect((await getScheduledAction(db, action.id)).dueAt.getTime()).toBe(at(450).getTime());
  });
});

describe('releases', () => {
  it('publishes every article of a release in one transaction', async () => {
    const ids = [await draft('Package one'), await draft('Package two'), await draft('Package three')];
    const release = await createRelease(
      db,
      {
        name: 'Election package',
        dueAt: at(500),
        actions: ids.map((articleId) => ({ articleId, kind: 'publish' as const })),
      },
      null,
      clock.now(),
    );
    clock.set(at(500));
    expect(await runDueScheduledActions(db, clock)).toMatchObject({ releases: 1 });
    const xids = new Set((await Promise.all(ids.map(outboxOf))).map((rows) => rows[0]?.xid));
    expect(xids.size).toBe(1);
    const ran = await getRelease(db, release.id);
    expect(ran.status).toBe('done');
    expect(ran.actions.every((action) => action.status === 'done')).toBe(true);
  });

  it('publishes none of a release when one of its actions fails, and says why', async () => {
    const ids = [await draft('Half one'), await draft('Half two'), await draft('Half three')];
    const release = await createRelease(
      db,
      {
        name: 'Doomed package',
        dueAt: at(650),
        actions: ids.map((articleId) => ({ articleId, kind: 'publish' as const })),
      },
      null,
      clock.now(),
    );
    await deleteArticle(db, ids[2] as string);
    clock.set(at(650));
    expect(await runDueScheduledActions(db, clock)).toMatchObject({ done: 0, failed: 3, releases: 1 });
    for (const id of ids.slice(0, 2)) {
      expect((await getArticle(db, id)).status).toBe('draft');
      expect(await outboxOf(id)).toEqual([]);
    }
    const ran = await getRelease(db, release.id);
    expect(ran.status).toBe('failed');
    expect(ran.failureReason).toMatch(/The article was deleted/);
    expect(ran.actions.every((action) => action.status === 'failed')).toBe(true);
  });
});

describe('several runners at once', () => {
  it('runs each of 150 due actions exactly once across three concurrent runners', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 150; i++)
      ids.push(
        (
          await db
            .insertInto('articles')
            .values({ title: `Bulk ${i}`, slug: `bulk-${i}`, status: 'draft', tags: [] })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
    await db
      .insertInto('scheduled_actions')
      .values(
        ids.map((id) => ({ article_id: id, kind: 'publish' as const, due_at: at(700), created_by: null })),
      )
      .execute();
    clock.set(at(700));
    const pools = [createDb({ connectionString: url, max: 2 }), createDb({ connectionString: url, max: 2 })];
    try {
      const results = await Promise.all([
        runDueScheduledActions(db, clock, { batchSize: 10, lanes: 3 }),
        ...pools.map((pool) => runDueScheduledActions(pool, clock, { batchSize: 10 })),
      ]);
      expect(results.reduce((sum, result) => sum + result.done, 0)).toBe(150);
      expect(results.reduce((sum, result) => sum + result.failed, 0)).toBe(0);
    } finally {
      await Promise.all(pools.map((pool) => pool.destroy()));
    }
    const { rows } = await sql<{ n: string }>`
      select count(*)::text as n from article_changes where article_id = any(${ids}::uuid[])`.execute(db);
    expect(rows[0]?.n).toBe('150');
  });
});

describe('webhooks at go-live', () => {
  it('sends article.unpublished when an embargo hides a published article, and article.published at its time', async () => {
    await createWebhookEndpoint(db, {
      url: 'https://hooks.example.com/newsroom',
      events: ['article.published', 'article.unpublished'],
      site: null,
      enabled: true,
    });
    const id = await draft('Webhook at the embargo');
    clock.set(at(800));
    await changeArticleStatus(db, id, 'publish', clock.now());
    await setArticleEmbargo(db, id, at(810), null, clock.now());
    clock.set(at(810));
    await runDueScheduledActions(db, clock);
    const typesOf = async () =>
      (
        await db
          .selectFrom('webhook_events')
          .select('type')
          .where('body', 'like', `%${id}%`)
          .orderBy('occurred_at')
          .execute()
      ).map((row) => row.type);
    // The relay serves an outbox row once every older transaction on the server has ended: a bounded wait.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
      await relayArticleChanges(db);
      if ((await typesOf()).length >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await typesOf()).toEqual(['article.published', 'article.unpublished', 'article.published']);
  });
});
