import { getPublisherFeedSettings, type ImportedArticleDraft, previewFeedImport } from '@newsroom/domain';
import { FeedError, readFeed } from '@newsroom/feeds';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error';
import type { FeedPreview, PreviewArticle } from '../schemas/feed-import.schema';

export const previewItemCount = 5;

function toPreviewArticle(draft: ImportedArticleDraft): PreviewArticle {
  return {
    ...draft,
    publishedAt: draft.publishedAt?.toISOString() ?? null,
    sourcePublishedAt: draft.sourcePublishedAt?.toISOString() ?? null,
  };
}

/**
 * Fetches a feed with the import's safety rules and shows its first items exactly as the import
 * would store them for this publisher. Saves nothing: no article, no validators, no fetch state.
 * A feed that cannot be read is a 422 with the FeedError's code and its publisher-safe message.
 */
export async function previewFeed(
  app: FastifyInstance,
  publisherId: string,
  feedUrl: string | undefined,
): Promise<FeedPreview> {
  const publisher = await getPublisherFeedSettings(app.db, publisherId);
  const url = feedUrl ?? publisher.feedUrl;
  if (!url)
    throw new HttpError(400, 'FEED_URL_REQUIRED', 'The publisher has no saved feed URL; send feedUrl');
  try {
    // No validators: a preview always wants the full feed.
    const feed = await readFeed(app.feedFetcher, { url }, { maxItems: previewItemCount });
    if (feed.notModified)
      throw new HttpError(502, 'BAD_RESPONSE', 'The feed server answered 304 to a plain request');
    return { title: feed.title, items: previewFeedImport(publisher, feed.items).map(toPreviewArticle) };
  } catch (error) {
    if (error instanceof FeedError) throw new HttpError(422, error.code, error.message);
    throw error;
  }
}
