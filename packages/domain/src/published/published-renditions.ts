import { type ImgproxySettings, imgproxyRenditions } from '../images/imgproxy-renditions';
import type { PublishedArticle } from './published-article';

/**
 * The article with its pictures' signed renditions (issue 32), or as it is (`renditions: null`) without an
 * image proxy. Called by the client answers' writers, so it runs when an answer is built and cached, never
 * per request (twelve HMACs per picture at most).
 */
export function withRenditions<A extends PublishedArticle>(
  article: A,
  settings: ImgproxySettings | undefined,
): A {
  // Already signed (the JSON-LD writer signs before the serialiser does): the same settings, the same URLs.
  if (!settings || article.renditions) return article;
  const of = (url: string | null, meta: PublishedArticle['imageMeta']) =>
    url
      ? imgproxyRenditions(settings, url, meta && { width: meta.width, focalPoint: meta.focalPoint })
      : null;
  return {
    ...article,
    renditions: {
      thumbnail: of(article.thumbnail, article.thumbnailMeta),
      image: of(article.image, article.imageMeta),
    },
  };
}
