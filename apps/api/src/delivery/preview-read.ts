import {
  clientArticleJson,
  type DbOrTx,
  findPreviewArticle,
  type ImgproxySettings,
  resolveSiteIds,
  withRenditions,
} from '@newsroom/domain';
import { type ArticleView, articleInView, networkView } from './article-view';
import type { ClientAnswer, Freshness } from './client-answer';
import { answerOf, bytesOf } from './response-bytes';

// The preview read (issue 29): one article by preview token, whatever its status, in the shape of
// `/client/article/:slug`. Never cached, anywhere: each read asks Postgres whether the token still opens (so a
// revocation or an expiry holds on every replica at once), and the answer says `no-store`.

/** A preview answer may be kept by nobody: no cache in this process, none in a browser, a CDN or a child site. */
export const previewFreshness: Freshness = {
  cacheControl: 'no-store',
  // Never public, whatever the key (issue 33): publishable keys get `no-store` too, and no surrogate keys.
  sharedCacheControl: null,
  vary: null,
  compressible: false,
  notModifiedPayload: undefined,
};

/**
 * What a preview read takes: the database (the token lookup and, with `site`, the site's existence), and the
 * image proxy that signs renditions (undefined: none).
 */
export interface PreviewReadSources {
  db: DbOrTx;
  imgproxy?: ImgproxySettings | undefined;
}

export interface PreviewParams {
  token: string;
  /** Write the article as this site's reads do (`url`); undefined: as the network's (`urls`). */
  site: string | undefined;
}

/**
 * The article the token opens, written by the one article writer (`clientArticleJson`) in the view a site's
 * `/client/article/:slug` (with `site`) or the network's would get; null for a token that opens nothing
 * (unknown, malformed, expired or revoked alike). An unknown `site` is a 400, asked only once the token opened.
 */
export async function readPreview(
  sources: PreviewReadSources,
  { token, site }: PreviewParams,
): Promise<ClientAnswer | null> {
  const article = await findPreviewArticle(sources.db, token);
  if (!article) return null;
  let view: ArticleView = networkView;
  if (site !== undefined) {
    const [siteId] = await resolveSiteIds(sources.db, [site]);
    view = { siteId: siteId as string, siteSlug: site };
  }
  const json = clientArticleJson(articleInView(withRenditions(article, sources.imgproxy), view));
  return answerOf(bytesOf(json), previewFreshness, null);
}
