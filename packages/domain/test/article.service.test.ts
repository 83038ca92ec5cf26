import { createTestDatabase } from '@newsroom/test-support';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { lockAndFindTakenSlugs } from '../src/articles/article.repository';
import {
  changeArticleStatus,
  createArticle,
  deleteArticle,
  editArticle,
  getArticle,
} from '../src/articles/article.service';
import { ConflictError, InvalidTransitionError, NotFoundError } from '../src/errors';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

const content = (title: string) => ({
  title,
  body: '<p>Body</p>',
  tags: ['news'],
  category: null,
  section: null,
  thumbnail: null,
  image: null,
});

describe('article service', () => {
  it('creates a draft with a slug from the title', async () => {
    const article = await createArticle(db, content('Election night: live'));
    expect(article).toMatchObject({
      slug: 'election-night-live',
      status: 'draft',
      isAggregated: false,
      hostSites: [],
      publishedAt: null,
      source: null,
    });
  });

  it('numbers colliding slugs', async () => {
    const slugs = [];
    for (let i = 0; i < 3; i++) slugs.push((await createArticle(db, content('Same Title'))).slug);
    expect(slugs).toEqual(['same-title', 'same-title-2', 'same-title-3']);
  });

  it('keeps slugs unique when created concurrently', async () => {
    const created = await Promise.all(Array.from({ length: 8 }, () => createArticle(db, content('Race'))));
    expect(new Set(created.map((a) => a.slug)).size).toBe(8);
  });

  it('reads taken slugs after waiting for the base lock, so it sees what the holder committed', async () => {
    const other = await createArticle(db, content('Placeholder for a slug'));
    let commit = () => {};
    let holding = () => {};
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    const holder = db.transaction().execute(async (tx) => {
      expect(await lockAndFindTakenSlugs(tx, ['awaited'])).toEqual(new Set());
      await tx.updateTable('articles').set({ slug: 'awaited' }).where('id', '=', other.id).execute();
      await new Promise<void>((resolve) => {
        commit = resolve;
        holding();
      });
    });
    await held;
    const waiter = db.transaction().execute((tx) => lockAndFindTakenSlugs(tx, ['awaited']));
    // Commit only once the waiter is blocked on the advisory lock (its snapshot would predate the commit).
    for (;;) {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`.execute(db);
      if ((rows[0]?.n ?? 0) > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    commit();
    await holder;
    expect(await waiter).toEqual(new Set(['awaited']));
  });

  it('does not treat other slugs with the same prefix as collisions', async () => {
    await createArticle(db, content('Budget 2026'));
    const article = await createArticle(db, content('Budget'));
    expect(article.slug).toBe('budget');
  });

  it('keeps the slug and status when the title is edited', async () => {
    const article = await createArticle(db, content('Original title'));
    const edited = await editArticle(db, article.id, { title: 'A new title', tags: ['a', 'b'] });
    expect(edited).toMatchObject({
      slug: 'original-title',
      title: 'A new title',
      tags: ['a', 'b'],
      status: 'draft',
    });
    expect(edited.updatedAt.getTime()).toBeGreaterThanOrEqual(article.updatedAt.getTime());
  });

  it('accepts an explicit free slug and refuses a taken one', async () => {
    const a = await createArticle(db, content('First'));
    const b = await createArticle(db, content('Second'));
    expect((await editArticle(db, a.id, { slug: 'custom-slug' })).slug).toBe('custom-slug');
    await expect(editArticle(db, b.id, { slug: 'custom-slug' })).rejects.toBeInstanceOf(ConflictError);
  });

  it('publishes a draft and sets publishedAt', async () => {
    const article = await createArticle(db, content('To publish'));
    const now = new Date('2026-11-22T10:00:00Z');
    const published = await changeArticleStatus(db, article.id, 'publish', now);
    expect(published.status).toBe('published');
    expect(published.publishedAt).toEqual(now);
    const unpublished = await changeArticleStatus(db, article.id, 'unpublish');
    expect(unpublished).toMatchObject({ status: 'draft', publishedAt: null });
  });

  it('refuses an illegal transition and leaves the article as it was', async () => {
    const article = await createArticle(db, content('Draft only'));
    await expect(changeArticleStatus(db, article.id, 'approve')).rejects.toBeInstanceOf(
      InvalidTransitionError,
    );
    expect((await getArticle(db, article.id)).status).toBe('draft');
  });

  it('lets exactly one of two concurrent publishes win', async () => {
    const article = await createArticle(db, content('Contended'));
    const results = await Promise.allSettled([
      changeArticleStatus(db, article.id, 'publish'),
      changeArticleStatus(db, article.id, 'publish'),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const [rejected] = results.filter((r) => r.status === 'rejected');
    expect((rejected as PromiseRejectedResult).reason).toBeInstanceOf(InvalidTransitionError);
  });

  it('reports unknown ids as not found', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    await expect(getArticle(db, id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(editArticle(db, id, { title: 'x' })).rejects.toMatchObject({ code: 'ARTICLE_NOT_FOUND' });
    await expect(changeArticleStatus(db, id, 'publish')).rejects.toBeInstanceOf(NotFoundError);
    const taken = await createArticle(db, content('Taken slug'));
    await expect(editArticle(db, id, { slug: taken.slug })).rejects.toBeInstanceOf(NotFoundError);
    await expect(deleteArticle(db, id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
