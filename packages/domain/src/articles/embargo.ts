import { ArticleEmbargoedError } from '../errors';
import type { Article } from './article';

/**
 * Throws ArticleEmbargoedError (409 ARTICLE_EMBARGOED) when `article` may not appear yet at `now`. Every path
 * to `published` goes through changeArticleStatus, which asks this first; the database's check
 * (articles_published_not_embargoed) refuses any other writer.
 */
export function assertNotEmbargoed(article: Pick<Article, 'id' | 'embargoUntil'>, now: Date): void {
  if (article.embargoUntil !== null && article.embargoUntil.getTime() > now.getTime()) {
    throw new ArticleEmbargoedError(article.id, article.embargoUntil);
  }
}
