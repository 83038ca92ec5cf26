import { type DbOrTx, findSiteById, type ListingOutline, type PublishedArticle } from '@newsroom/domain';
import type { ArticleJsonCache } from './article-json-cache';
import { type ArticleView, articleInView } from './article-view';
import type { ClientAnswer, ClientFreshness } from './client-answer';
import type { ClientSerializers } from './client-serializers';
import type { ContentNotifications } from './content-notifications';
import type { ContentDatabase } from './replica/content-database';
import type { VersionedMemo } from './versioned-memo';

/** The caches the reads go through (one set per API replica, see client-content.plugin.ts). */
export interface ClientCaches {
  notifications: ContentNotifications;
  /** Serialised answers (null: a 404) by route + scope + parameters. */
  responses: VersionedMemo<ClientAnswer | null>;
  /** Listing sizes and anchors by listing. */
  outlines: VersionedMemo<ListingOutline>;
  /** Serialised articles by row version. */
  articleJson: ArticleJsonCache;
}

/**
 * What every read takes first: where the content is, the caches in front of it, the JSON writers, and the
 * freshness its answers carry (one object per replica, `app.clientContent.reads`).
 */
export interface ClientReadSources {
  /** The primary: the change feed (its cursors are the primary's positions) and previews read it. */
  db: DbOrTx;
  /** Where the content reads run: the replica when one is configured and caught up, else the primary. */
  content: ContentDatabase;
  caches: ClientCaches;
  serializers: ClientSerializers;
  freshness: ClientFreshness;
}

/**
 * How the articles of one read (on `db`: the primary, or the content database's choice) are written: the view's article (its site's `url`, or the network's `urls`;
 * structured data when `fields` asks for it, with the site read once for the whole fill), by the serialiser
 * of `fields`.
 */
export async function articleWriter(
  { db, serializers }: Pick<ClientReadSources, 'db' | 'serializers'>,
  fields: readonly string[] | null,
  view: ArticleView,
): Promise<(article: PublishedArticle) => string> {
  const serialize = serializers.articleWith(fields);
  if (fields?.includes('structuredData') && view.siteId !== null) {
    const site = await findSiteById(db, view.siteId);
    const scoped = {
      ...view,
      structuredDataSite: site ? { name: site.name, language: site.language } : null,
    };
    // The JSON-LD lists the pictures' ratio crops when an image proxy signs them (once per cache fill).
    return (article) => serialize(articleInView(serializers.renditions(article), scoped));
  }
  return (article) => serialize(articleInView(article, view));
}
