import type { PublishedArticle, PublishedArticleVersion } from '@newsroom/domain';
import { LRUCache } from 'lru-cache';
import { type CacheLookupObserver, ignoreCacheLookups } from '../metrics/cache-lookup';
import { type SerialisedArticle, serialiseArticle } from './page-assembly';

/** Reads the published articles among some ids with their row versions (missing ids: no longer published). */
export type LoadArticles = (ids: string[]) => Promise<Array<{ article: PublishedArticle; version: string }>>;

/**
 * Serialised client JSON of single articles, kept by scope, article id and row version. A page read asks Postgres
 * only for the page's ids and versions, and reads and serialises the full rows of versions it does not hold.
 *
 * Unlike the response cache, nothing here depends on the change feed: a version names one committed state of
 * the article's whole client representation, so an entry can never be served for another state, and entries
 * stay useful across content changes (after an import, a page re-reads only its new articles).
 * Bounded by bytes (least recently used go first); `maxBytes` 0 switches it off.
 */
export class ArticleJsonCache {
  private readonly entries: LRUCache<string, { version: string; article: SerialisedArticle }> | null;

  /** `onLookup` is told, per article of a page, whether its JSON was held (hit), read (miss) or the cache is off. */
  constructor(
    maxBytes: number,
    private readonly onLookup: CacheLookupObserver = ignoreCacheLookups,
  ) {
    this.entries =
      maxBytes > 0
        ? new LRUCache({ maxSize: maxBytes, sizeCalculation: (entry) => entry.article.json.length + 64 })
        : null;
  }

  /**
   * The JSON of each article of `page`, in order; null when an article changed between the page read and the
   * article read (then the caller reads the page in one query, so a response never mixes two states).
   */
  async jsonOf(
    page: readonly PublishedArticleVersion[],
    load: LoadArticles,
    serialize: (article: PublishedArticle) => string,
    scope: string | null = null,
  ): Promise<SerialisedArticle[] | null> {
    // An article's JSON depends on whom it is written for (a site's `url`, or the network's `urls`): one entry
    // per article and scope (the site id, or '' for the network).
    const prefix = `${scope ?? ''}/`;
    const articles: Array<SerialisedArticle | undefined> = page.map(({ id, version }) => {
      const entry = this.entries?.get(prefix + id);
      return entry?.version === version ? entry.article : undefined;
    });
    const missing = page.filter((_, index) => articles[index] === undefined).map(({ id }) => id);
    this.countLookups(page.length, missing.length);
    if (missing.length > 0) {
      const loaded = new Map<string, { version: string; article: SerialisedArticle }>();
      for (const { article, version } of await load(missing)) {
        const entry = { version, article: serialiseArticle(serialize, article) };
        loaded.set(article.id, entry);
        this.entries?.set(prefix + article.id, entry);
      }
      for (let index = 0; index < page.length; index++) {
        if (articles[index] !== undefined) continue;
        const { id, version } = page[index] as PublishedArticleVersion;
        const entry = loaded.get(id);
        if (entry?.version !== version) return null;
        articles[index] = entry.article;
      }
    }
    return articles as SerialisedArticle[];
  }

  private countLookups(total: number, missing: number): void {
    if (total === 0) return;
    if (!this.entries) {
      this.onLookup('bypass', total);
      return;
    }
    if (missing > 0) this.onLookup('miss', missing);
    if (missing < total) this.onLookup('hit', total - missing);
  }
}
