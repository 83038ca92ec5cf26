import { createTestDatabase } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle, updateArticleStatus } from '../src/articles/article.repository';
import { changeArticleStatus, getArticle } from '../src/articles/article.service';
import { applyBulkArticleAction } from '../src/articles/article-bulk.service';
import { DomainValidationError, InvalidTransitionError } from '../src/errors';

// Issue 26: a review decision records when and why, and back-to-pending takes it back.

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

let n = 0;
const pending = () =>
  insertArticle(db, {
    title: `Imported ${++n}`,
    slug: `imported-${n}`,
    status: 'pending',
    is_aggregated: true,
    source: 'Daily Planet',
    rss_feed_guid: `guid-${n}`,
  });

describe('review decisions', () => {
  it('stores the trimmed reason and the time with approve and reject, and clears them on any other move', async () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const article = await pending();
    const rejected = await changeArticleStatus(db, article.id, 'reject', now, '  Off topic ');
    expect(rejected).toMatchObject({ status: 'rejected', reviewedAt: now, reviewReason: 'Off topic' });
    const back = await changeArticleStatus(db, article.id, 'back-to-pending');
    expect(back).toMatchObject({
      status: 'pending',
      reviewedAt: null,
      reviewReason: null,
      publishedAt: null,
    });
    await changeArticleStatus(db, article.id, 'approve', now, 'Good');
    const unpublished = await changeArticleStatus(db, article.id, 'unpublish');
    expect(unpublished).toMatchObject({ status: 'draft', reviewedAt: null, reviewReason: null });
  });

  it('refuses a reason that is too long or goes with another action, changing nothing', async () => {
    const article = await pending();
    await expect(changeArticleStatus(db, article.id, 'reject', new Date(), 'x'.repeat(501))).rejects.toThrow(
      DomainValidationError,
    );
    await expect(changeArticleStatus(db, article.id, 'publish', new Date(), 'Why')).rejects.toMatchObject({
      code: 'INVALID_REVIEW_REASON',
    });
    await expect(applyBulkArticleAction(db, 'delete', [article.id], 'Why')).rejects.toThrow(
      DomainValidationError,
    );
    expect((await getArticle(db, article.id)).status).toBe('pending');
  });

  it('takes an approval back only while the approval is what published it', async () => {
    const article = await pending();
    await changeArticleStatus(db, article.id, 'approve');
    // A concurrent unpublish and publish by hand between the read and the write: the compare-and-set refuses.
    await db.updateTable('articles').set({ reviewed_at: null }).where('id', '=', article.id).execute();
    const written = await updateArticleStatus(db, article.id, {
      from: 'published',
      to: 'pending',
      publishedAt: null,
      fromReviewed: true,
    });
    expect(written).toBe(false);
    await expect(changeArticleStatus(db, article.id, 'back-to-pending')).rejects.toThrow(
      InvalidTransitionError,
    );
    expect((await getArticle(db, article.id)).status).toBe('published');
  });
});
