import type { ArticleCounts } from '../articles/article-counts';
import { normaliseTags } from '../articles/tags';
import type { Db, DbOrTx } from '../db/create-db';
import { isUniqueViolation } from '../db/pg-errors';
import type { ArticleStatus } from '../db/tables';
import { ConflictError, DomainValidationError, NotFoundError } from '../errors';
import { type ImportRulesInput, validateImportRules } from '../import-rules';
import { resumeFeed } from '../imports/publisher-feed-state.repository';
import type { Page, PageRequest } from '../shared/page';
import { resolveSiteIds } from '../sites/site.repository';
import type { PasswordHasher } from '../users/password-hasher';
import { insertUser } from '../users/user.repository';
import type { PublisherDetail } from './publisher';
import {
  deletePublisherById,
  findPublisherById,
  findPublishers,
  insertPublisher,
  type PublisherFilter,
  type PublisherSort,
  publisherExists,
  replacePublisherDefaultSites,
  updatePublisherColumns,
  updatePublisherDisabled,
} from './publisher.repository';
import type { PublisherArticle } from './publisher-article';
import { countArticlesByStatus, findArticlesOfPublisher } from './publisher-articles.repository';

const emailKey = 'users_email_lower_key';
export const maxFeedUrlLength = 2048;

/** One publisher with its state, article counts and feed health. */
export async function getPublisher(db: DbOrTx, id: string): Promise<PublisherDetail> {
  const publisher = await findPublisherById(db, id);
  if (!publisher) throw new NotFoundError('publisher', id);
  return publisher;
}

/** One page of publishers (newest first unless `sort` is `name`), each with its details. */
export function listPublishers(
  db: DbOrTx,
  filter: PublisherFilter,
  page: PageRequest,
  sort: PublisherSort = 'newest',
): Promise<Page<PublisherDetail>> {
  return findPublishers(db, filter, page, sort);
}

/**
 * Creates a publisher and its login together (one transaction): not approved, no feed yet.
 * An e-mail already used by any login, in any case, is a ConflictError EMAIL_TAKEN.
 */
export async function createPublisher(
  db: Db,
  hasher: PasswordHasher,
  input: { name: string; email: string; password: string },
): Promise<PublisherDetail> {
  const passwordHash = await hasher.hash(input.password);
  try {
    const id = await db.transaction().execute(async (tx) => {
      const publisherId = await insertPublisher(tx, { name: input.name.trim() });
      await insertUser(tx, {
        email: input.email.trim(),
        password_hash: passwordHash,
        role: 'publisher',
        publisher_id: publisherId,
      });
      return publisherId;
    });
    return getPublisher(db, id);
  } catch (error) {
    if (isUniqueViolation(error, emailKey)) {
      throw new ConflictError('EMAIL_TAKEN', 'This e-mail address is already used by another login');
    }
    throw error;
  }
}

/** Approves a publisher: its feed joins the hourly import. Approving twice is harmless. */
export async function approvePublisher(db: Db, id: string): Promise<PublisherDetail> {
  if (!(await updatePublisherColumns(db, id, { approved: true }))) throw new NotFoundError('publisher', id);
  return getPublisher(db, id);
}

export interface PublisherSettings {
  name?: string;
  autoApprove?: boolean;
  defaultTags?: string[];
  /** Child-site slugs; an unknown one is a DomainValidationError UNKNOWN_SITE naming it. */
  defaultHostSites?: string[];
  /** The whole rule set (fields left out take their defaults); a bad rule is INVALID_IMPORT_RULE. */
  importRules?: ImportRulesInput;
}

/** Administrator edits of a publisher's settings; only the fields given change. */
export async function updatePublisher(
  db: Db,
  id: string,
  settings: PublisherSettings,
): Promise<PublisherDetail> {
  const importRules = settings.importRules && validateImportRules(settings.importRules);
  await db.transaction().execute(async (tx) => {
    const found = await updatePublisherColumns(tx, id, {
      ...(importRules !== undefined && { import_rules: JSON.stringify(importRules) }),
      ...(settings.name !== undefined && { name: settings.name.trim() }),
      ...(settings.autoApprove !== undefined && { auto_approve: settings.autoApprove }),
      ...(settings.defaultTags !== undefined && { default_tags: normaliseTags(settings.defaultTags) }),
    });
    if (!found) throw new NotFoundError('publisher', id);
    if (settings.defaultHostSites !== undefined) {
      await replacePublisherDefaultSites(tx, id, await resolveSiteIds(tx, settings.defaultHostSites));
    }
  });
  return getPublisher(db, id);
}

/**
 * Disables or enables a publisher. A disabled publisher is left out of the feed import and
 * cannot log in; its existing tokens are refused at once. Its articles are untouched.
 */
export async function setPublisherDisabled(db: Db, id: string, disabled: boolean): Promise<PublisherDetail> {
  if (!(await updatePublisherDisabled(db, id, disabled))) throw new NotFoundError('publisher', id);
  return getPublisher(db, id);
}

/**
 * Resumes a feed paused after repeated failures: it joins the hourly import again (failure count
 * cleared, the last error kept for the record). Resuming a feed that is not paused is harmless.
 */
export async function resumePublisherFeed(db: Db, id: string): Promise<PublisherDetail> {
  if (!(await resumeFeed(db, id))) throw new NotFoundError('publisher', id);
  return getPublisher(db, id);
}

/** Deletes a publisher and its login. Its articles stay, keeping their status and source attribution. */
export async function deletePublisher(db: DbOrTx, id: string): Promise<void> {
  if (!(await deletePublisherById(db, id))) throw new NotFoundError('publisher', id);
}

/** A feed address as stored: absolute http(s), no embedded credentials, normalised by the URL parser. */
export function parseFeedUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new DomainValidationError('INVALID_FEED_URL', 'The feed URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DomainValidationError('INVALID_FEED_URL', 'The feed URL must start with http:// or https://');
  }
  if (url.username || url.password) {
    throw new DomainValidationError(
      'INVALID_FEED_URL',
      'The feed URL must not contain a user name or password',
    );
  }
  if (url.href.length > maxFeedUrlLength) {
    throw new DomainValidationError(
      'INVALID_FEED_URL',
      `The feed URL is longer than ${maxFeedUrlLength} characters`,
    );
  }
  return url.href;
}

/**
 * A publisher saves its own feed settings. A new address starts with a clean fetch state
 * (no validators, body hash, refresh hint, failure count or 410 mark): those belonged to the old feed.
 */
export async function saveOwnFeed(
  db: Db,
  publisherId: string,
  feed: { feedUrl: string | null; defaultTags?: string[] },
): Promise<PublisherDetail> {
  return (await saveOwnFeedReportingChange(db, publisherId, feed)).publisher;
}

/**
 * Whether saving `feedUrl` would give the publisher a new feed address to fetch (a different one, not
 * its removal). The API throttles such changes: each queues a fetch of the new address.
 * DomainValidationError for a malformed address, NotFoundError without the publisher.
 */
export async function isNewFeedAddress(
  db: Db,
  publisherId: string,
  feedUrl: string | null,
): Promise<boolean> {
  if (feedUrl === null) return false;
  const parsed = parseFeedUrl(feedUrl);
  const current = await findPublisherById(db, publisherId);
  if (!current) throw new NotFoundError('publisher', publisherId);
  return current.feedUrl !== parsed;
}

/** saveOwnFeed, also saying whether the feed address changed (a new one gets its first import at once). */
export async function saveOwnFeedReportingChange(
  db: Db,
  publisherId: string,
  feed: { feedUrl: string | null; defaultTags?: string[] },
): Promise<{ publisher: PublisherDetail; addressChanged: boolean }> {
  const feedUrl = feed.feedUrl === null ? null : parseFeedUrl(feed.feedUrl);
  const current = await findPublisherById(db, publisherId);
  if (!current) throw new NotFoundError('publisher', publisherId);
  const changedAddress = current.feedUrl !== feedUrl;
  await updatePublisherColumns(db, publisherId, {
    feed_url: feedUrl,
    ...(feed.defaultTags !== undefined && { default_tags: normaliseTags(feed.defaultTags) }),
    ...(changedAddress && {
      etag: null,
      last_modified: null,
      last_error: null,
      consecutive_failures: 0,
      last_fetched_at: null,
      last_failed_at: null,
      feed_paused_at: null,
      feed_pause_reason: null,
      feed_body_hash: null,
      feed_refresh_seconds: null,
      next_fetch_after: null,
      feed_gone_at: null,
      redirect_target: null,
      redirect_count: 0,
    }),
  });
  return { publisher: await getPublisher(db, publisherId), addressChanged: changedAddress };
}

/** One page of any publisher's articles for administrators, as listPublisherArticles; NotFoundError without it. */
export async function listArticlesOfPublisher(
  db: DbOrTx,
  publisherId: string,
  filter: { status?: ArticleStatus },
  page: PageRequest,
): Promise<Page<PublisherArticle> & { counts: ArticleCounts }> {
  const [exists, articles] = await Promise.all([
    publisherExists(db, publisherId),
    listPublisherArticles(db, publisherId, filter, page),
  ]);
  if (!exists) throw new NotFoundError('publisher', publisherId);
  return articles;
}

/** One page of a publisher's own articles, newest first, with its counts by status (its dashboard). */
export async function listPublisherArticles(
  db: DbOrTx,
  publisherId: string,
  filter: { status?: ArticleStatus },
  page: PageRequest,
): Promise<Page<PublisherArticle> & { counts: ArticleCounts }> {
  const [articles, counts] = await Promise.all([
    findArticlesOfPublisher(db, publisherId, filter, page),
    countArticlesByStatus(db, publisherId),
  ]);
  return { ...articles, counts };
}
