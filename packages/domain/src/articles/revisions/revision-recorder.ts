import type { Tx } from '../../db/create-db';
import { NotFoundError } from '../../errors';
import type { Article, VersionedArticle } from '../article';
import {
  findArticleWithNewestRevisions,
  insertRevisionAndUpdate,
  insertRevisions,
  type NewRevisionRow,
  type RevisionRow,
  updateRevisionData,
} from './article-revision.repository';
import { type ArticleSnapshot, articleSnapshot } from './article-snapshot';
import { applyDelta, reverseDelta, type SnapshotDelta } from './revision-delta';
import type { RevisionWrite } from './revision-write';

/**
 * Autosaves of one person closer together than this collapse into one revision (the newest text, the
 * latest time): a morning of typing is a handful of revisions, not hundreds. A manual save, another
 * person, a status change or a pause this long starts a new one.
 */
export const autosaveCollapseMs = 5 * 60_000;

/**
 * Records the article as it now is (read in the write's transaction, after the write, as the admin API
 * reads it) as its next revision, in that same transaction, and answers the article. The previous newest
 * revision becomes a delta against this one. The caller holds the article's row lock (its write took it).
 * Two round trips: the read (with the two newest revisions) and one statement writing both rows.
 */
export async function recordArticleRevision(
  tx: Tx,
  id: string,
  write: RevisionWrite,
  now: Date = new Date(),
): Promise<VersionedArticle> {
  return (await recordNumberedRevision(tx, id, write, now)).article;
}

/** recordArticleRevision, answering the revision's number too. */
export async function recordNumberedRevision(
  tx: Tx,
  id: string,
  write: RevisionWrite,
  now: Date = new Date(),
): Promise<{ article: VersionedArticle; n: number }> {
  const found = await findArticleWithNewestRevisions(tx, id);
  if (!found) throw new NotFoundError('article', id);
  const { article, newest } = found;
  const snapshot = articleSnapshot(article);
  const [head, beforeHead] = newest;
  if (head && collapses(head, article, write, now)) {
    await updateRevisionData(tx, article.id, head.n, { kind: 'snapshot', data: snapshot, createdAt: now });
    if (beforeHead) {
      // Its delta led back from the head's old text; rebuild it against the new one.
      const older = applyDelta(head.data as ArticleSnapshot, beforeHead.data as SnapshotDelta);
      await updateRevisionData(tx, article.id, beforeHead.n, {
        kind: 'delta',
        data: reverseDelta(snapshot, older),
      });
    }
    return { article, n: head.n };
  }
  const n = (head?.n ?? 0) + 1;
  await insertRevisionAndUpdate(
    tx,
    newRow(article, n, snapshot, write),
    head ? [{ n: head.n, kind: 'delta', data: reverseDelta(snapshot, head.data as ArticleSnapshot) }] : [],
  );
  return { article, n };
}

/**
 * The first revisions of articles just created together (an import batch): one multi-row insert, as the
 * importer inserts the articles themselves.
 */
export async function recordFirstRevisions(
  tx: Tx,
  articles: readonly Article[],
  write: RevisionWrite,
): Promise<void> {
  await insertRevisions(
    tx,
    articles.map((article) => newRow(article, 1, articleSnapshot(article), write)),
  );
}

function newRow(
  article: Article,
  n: number,
  snapshot: ArticleSnapshot,
  write: RevisionWrite,
): NewRevisionRow {
  return {
    articleId: article.id,
    n,
    actorKind: write.actor.kind,
    actorId: write.actor.id,
    actorLabel: write.actor.label,
    source: write.source,
    reason: normaliseRevisionReason(write.reason),
    status: article.status,
    kind: 'snapshot',
    data: snapshot,
  };
}

function collapses(head: RevisionRow, article: Article, write: RevisionWrite, now: Date): boolean {
  return (
    write.source === 'autosave' &&
    head.source === 'autosave' &&
    head.kind === 'snapshot' &&
    head.actorKind === write.actor.kind &&
    head.actorId === write.actor.id &&
    head.status === article.status &&
    head.status !== 'published' &&
    now.getTime() - head.createdAt.getTime() < autosaveCollapseMs
  );
}

/** A reason trimmed, at most 500 characters (the column's check); blank is none. */
export function normaliseRevisionReason(reason: string | null | undefined): string | null {
  const trimmed = reason?.trim() ?? '';
  return trimmed === '' ? null : trimmed.slice(0, 500);
}
