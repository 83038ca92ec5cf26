import {
  type ChangePosition,
  currentChangePosition,
  type DbOrTx,
  findPublishedArticlesByIds,
  type PublishedArticle,
  readScopedChanges,
  type ScopedChangeItem,
  type ScopedChangePage,
} from '@newsroom/domain';
import type { ArticleJsonCache } from '../article-json-cache';
import { envelopeTail, jsonEnvelope } from '../json-envelope';
import { encodeCursor } from './change-cursor';

/** Where a change feed reader stands: its site (null: the whole network) and that site's slug. */
export interface ChangeScope {
  siteId: string | null;
  siteSlug: string | null;
}

export interface ChangePageSources {
  db: DbOrTx;
  articleJson: ArticleJsonCache;
  serializeArticle: (article: PublishedArticle) => string;
}

/** Attempts at a page whose articles all kept the versions the change read saw, before reading them plainly. */
const consistentAttempts = 3;

/** The body of a change feed answer without `since`: no changes, and a cursor for "now". */
export async function startOfChanges(db: DbOrTx): Promise<Buffer> {
  return changesBody([], encodeCursor(await currentChangePosition(db)), false);
}

/**
 * The body of one page of the change feed after `after` for `scope`: each changed article once, oldest first,
 * as an upsert with its current client JSON (reused from the article JSON cache by row version) when it is
 * published in the scope now, else as a delete. Throws ChangesExpiredError for a position past retention.
 */
export async function changePage(
  sources: ChangePageSources,
  scope: ChangeScope,
  after: ChangePosition,
  limit: number,
): Promise<Buffer> {
  const { db, articleJson, serializeArticle } = sources;
  let page: ScopedChangePage | null = null;
  for (let attempt = 0; attempt < consistentAttempts; attempt++) {
    page = await readScopedChanges(db, after, scope.siteId, limit);
    const upserts = page.items.filter((item) => item.currentVersion !== null);
    const articles = await articleJson.jsonOf(
      upserts.map((item) => ({ id: item.articleId, version: item.currentVersion as string })),
      (ids) => findPublishedArticlesByIds(db, ids),
      serializeArticle,
      scope.siteId,
    );
    // null: an article changed between the two reads; read again, so the page is of one moment.
    if (articles) {
      const json = new Map(upserts.map((item, index) => [item.articleId, articles[index]?.json]));
      // Upserts carry the current slug (read with the version), deletes the slug the scope last saw.
      return changesBody(
        page.items.map((item) => itemJson(item, json.get(item.articleId))),
        encodeCursor(page.next),
        page.hasMore,
      );
    }
  }
  return plainPage(sources, scope, page as ScopedChangePage);
}

/** A page under constant churn: the articles' current state read once, without the version check. */
async function plainPage(sources: ChangePageSources, scope: ChangeScope, page: ScopedChangePage) {
  const loaded = await findPublishedArticlesByIds(
    sources.db,
    page.items.map((item) => item.articleId),
  );
  const json = new Map<string, Buffer>();
  const slugs = new Map<string, string>();
  for (const { article } of loaded) {
    if (scope.siteSlug !== null && !article.hostSites.includes(scope.siteSlug)) continue;
    json.set(article.id, Buffer.from(sources.serializeArticle(article), 'utf8'));
    slugs.set(article.id, article.slug);
  }
  return changesBody(
    page.items.map((item) =>
      itemJson({ ...item, slug: slugs.get(item.articleId) ?? item.slug }, json.get(item.articleId)),
    ),
    encodeCursor(page.next),
    page.hasMore,
  );
}

function itemJson(item: ScopedChangeItem, article: Buffer | undefined): Buffer {
  return changeItemJson(encodeCursor(item.position), item.articleId, item.slug, article);
}

/**
 * One item of a change feed answer: `{ cursor, type, id, slug }`, and for an upsert (an article given, as its
 * client JSON) `article`; no article: a delete.
 */
export function changeItemJson(
  cursor: string,
  id: string,
  slug: string,
  article: Buffer | undefined,
): Buffer {
  const type = article ? 'upsert' : 'delete';
  const head = `{"cursor":"${cursor}","type":"${type}","id":"${id}","slug":${JSON.stringify(slug)}`;
  if (!article) return Buffer.from(`${head}}`, 'utf8');
  return Buffer.concat([Buffer.from(`${head},"article":`, 'utf8'), article, closeBrace]);
}

const closeBrace = Buffer.from('}');

/** A change feed answer: the envelope of the items, `meta: { next, hasMore }`; `next` is an encoded cursor. */
export function changesBody(items: readonly Buffer[], next: string, hasMore: boolean): Buffer {
  return jsonEnvelope(items, Buffer.from(envelopeTail(`{"next":"${next}","hasMore":${hasMore}}`), 'utf8'));
}
