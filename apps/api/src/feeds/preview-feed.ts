import { getPublisherFeedSettings, type PreviewedItem, previewFeedItems } from '@newsroom/domain';
import { FeedError, readFeedPreview } from '@newsroom/feeds';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error';
import type { FeedPreview, PreviewArticle } from '../schemas/feed-import.schema';

export const previewItemCount = 5;

function toPreviewArticle({ article, decision }: PreviewedItem): PreviewArticle {
  return {
    ...article,
    publishedAt: article.publishedAt?.toISOString() ?? null,
    sourcePublishedAt: article.sourcePublishedAt?.toISOString() ?? null,
    decision: { ...decision },
  };
}

/** Seconds a refused preview is told to wait: a preview takes a few seconds at most. */
const busyRetryAfterSeconds = 5;

/**
 * Fetches a feed with the import's safety rules and shows its first items exactly as the import
 * would store them for this publisher, each with the decision of the publisher's rules (imported,
 * skipped or waiting, and which rule decided). Saves nothing: no article, no validators, no fetch state.
 * Reads only what it shows: the download stops once the first items are parsed, and after
 * FEED_PREVIEW_MAX_BYTES whatever the feed holds; at most FEED_PREVIEW_CONCURRENCY previews run at
 * once in this process (more: 503 TOO_MANY_PREVIEWS with Retry-After), and at most
 * FEED_PREVIEW_CONCURRENCY_PER_USER of them for the dashboard user `userId` (more: 429 TOO_MANY_OWN_PREVIEWS),
 * so one user holding slow feeds cannot take every slot from the others.
 * A feed that cannot be read is a 422 with the FeedError's code and its publisher-safe message.
 */
export async function previewFeed(
  app: FastifyInstance,
  userId: string,
  publisherId: string,
  feedUrl: string | undefined,
): Promise<FeedPreview> {
  const publisher = await getPublisherFeedSettings(app.db, publisherId);
  const url = feedUrl ?? publisher.feedUrl;
  if (!url)
    throw new HttpError(400, 'FEED_URL_REQUIRED', 'The publisher has no saved feed URL; send feedUrl');
  return app.feedPreviews.run(
    userId,
    async () => {
      try {
        // No validators: a preview always wants the full feed.
        const feed = await readFeedPreview(
          app.feedFetcher,
          { url },
          {
            maxItems: previewItemCount,
            maxBytes: app.config.feedPreview.maxBytes,
            allowPrivateImages: app.config.feeds.allowPrivateAddresses,
          },
        );
        if (feed.notModified)
          throw new HttpError(502, 'BAD_RESPONSE', 'The feed server answered 304 to a plain request');
        return {
          title: feed.title,
          items: (await previewFeedItems(app.db, publisher, feed.items)).map(toPreviewArticle),
        };
      } catch (error) {
        if (error instanceof FeedError) throw new HttpError(422, error.code, error.message);
        throw error;
      }
    },
    (reason) => {
      const retryAfter = { 'retry-after': String(busyRetryAfterSeconds) };
      if (reason === 'share') {
        throw new HttpError(
          429,
          'TOO_MANY_OWN_PREVIEWS',
          'You already have a feed preview running; wait for it to finish',
          retryAfter,
        );
      }
      throw new HttpError(
        503,
        'TOO_MANY_PREVIEWS',
        'Too many feed previews at once, try again shortly',
        retryAfter,
      );
    },
  );
}
