import type { PublishedArticle } from '@newsroom/domain';
import { describe, expect, it } from 'vitest';
import { pageResponse, serialiseArticle } from '../../src/delivery/page-assembly';

const serialize = (article: PublishedArticle) => JSON.stringify({ id: article.id, title: article.title });
const article = (id: string, title: string) => serialiseArticle(serialize, { id, title } as PublishedArticle);
const meta = (total: number) => JSON.stringify({ pagination: { page: 1, total } });

describe('pageResponse', () => {
  it('writes the data array and meta as one JSON document', () => {
    const { body } = pageResponse([article('a', 'A'), article('b', 'B "quoted"')], meta(2));
    expect(JSON.parse(body.toString())).toEqual({
      data: [
        { id: 'a', title: 'A' },
        { id: 'b', title: 'B "quoted"' },
      ],
      meta: { pagination: { page: 1, total: 2 } },
    });
    expect(pageResponse([], meta(0)).body.toString()).toBe(
      '{"data":[],"meta":{"pagination":{"page":1,"total":0}}}',
    );
  });

  it('gives equal bodies equal ETags, and any change in an article, the order or the meta a new one', () => {
    const etag = (articles: ReturnType<typeof article>[], total = 2) =>
      pageResponse(articles, meta(total)).etag;
    const reference = etag([article('a', 'A'), article('b', 'B')]);
    expect(reference).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(etag([article('a', 'A'), article('b', 'B')])).toBe(reference);
    expect(etag([article('a', 'A'), article('b', 'B!')])).not.toBe(reference);
    expect(etag([article('b', 'B'), article('a', 'A')])).not.toBe(reference);
    expect(etag([article('a', 'A'), article('b', 'B')], 3)).not.toBe(reference);
    expect(etag([article('a', 'A')])).not.toBe(reference);
  });
});
