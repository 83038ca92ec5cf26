import { createTestDatabase } from '@newsroom/test-support';
import { afterAll, describe, expect, it } from 'vitest';
import { createArticle } from '../src/articles/article.service';
import { setArticleHostSites } from '../src/articles/article-host-sites.service';
import { likeLiteral, listArticleSummaries } from '../src/articles/article-listing.repository';
import { DomainValidationError, NotFoundError } from '../src/errors';

const { db, destroy } = await createTestDatabase();
afterAll(destroy);

const content = (title: string) => ({
  title,
  body: 'x',
  tags: [],
  category: null,
  section: null,
  thumbnail: null,
  image: null,
});

describe('likeLiteral', () => {
  it('escapes %, _ and the backslash', () => {
    expect(likeLiteral('100%_a\\b')).toBe('100\\%\\_a\\\\b');
  });
});

describe('listArticleSummaries', () => {
  it('returns summaries with host sites and no body, and the total of all matches', async () => {
    await db.insertInto('sites').values({ slug: 'metro', name: 'Metro' }).execute();
    await createArticle(db, content('Listing one'), ['metro']);
    await createArticle(db, content('Listing two'));
    const page = await listArticleSummaries(db, { titleContains: 'LISTING' }, { page: 1, limit: 1 });
    expect(page.total).toBe(2);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).not.toHaveProperty('body');
    const all = await listArticleSummaries(
      db,
      { titleContains: 'listing' },
      { page: 1, limit: 10 },
      'oldest',
    );
    expect(all.items.map((a) => [a.title, a.hostSites])).toEqual([
      ['Listing one', ['metro']],
      ['Listing two', []],
    ]);
  });
});

describe('setArticleHostSites', () => {
  it('replaces the set, refuses unknown sites and unknown articles', async () => {
    await db.insertInto('sites').values({ slug: 'sport', name: 'Sport' }).execute();
    const article = await createArticle(db, content('Hosted article'), ['metro']);
    expect((await setArticleHostSites(db, article.id, ['sport'])).hostSites).toEqual(['sport']);
    await expect(setArticleHostSites(db, article.id, ['nowhere'])).rejects.toBeInstanceOf(
      DomainValidationError,
    );
    await expect(
      setArticleHostSites(db, '00000000-0000-4000-8000-000000000000', ['sport']),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
