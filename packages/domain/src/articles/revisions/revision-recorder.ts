import type { Tx } from '../../db/create-db';
import { NotFoundError } from '../../errors';
import type { Article, VersionedArticle } from '../article';
import {
  insertRevision,
  insertRevisions,
  type NewRevisionRow,
  type RevisionHead,
  updateRevisionData,
} from './article-revision.repository';
import { articleSnapshotJson } from './article-snapshot';
import {
  type ArticleWithRevisionHeads,
  findArticleWithNewestRevisions,
  type NewestRevisionsRead,
} from './revision-heads.repository';
import type { RevisionWrite } from './revision-write';

/**
 * Autosaves of one person closer together than this collapse into one revision (the newest text, the
 * latest time): a morning of typing is a handful of revisions, not hundreds. A manual save, another
 * person, a status change or a pause this long starts a new one.
 */
export const autosaveCollapseMs = 5 * 60_000;

/**
 * Records the article as it now is (read in the write's transaction, after the write, as the admin API
 * reads it) as its next revision, in that same transaction, and answers the article. The caller holds the
 * article's row lock (its write took it). Two round trips: the read (with the two newest revisions' numbers
 * and authors, not their data) and one statement writing the new revision whole and queueing the previous
 * one's conversion into a delta (`compactArticleRevisions`, run by the worker).
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
  return recordRevisionOf(tx, found, write, now);
}

/**
 * Records the revision of an article already in hand with its newest revisions' heads, as its write
 * answered them (`updateArticleReturningRevisionHeads`): one statement, no read.
 */
export async function recordRevisionOf(
  tx: Tx,
  { article, newest, newestN }: ArticleWithRevisionHeads,
  write: RevisionWrite,
  now: Date = new Date(),
): Promise<{ article: VersionedArticle; n: number }> {
  const snapshotJson = articleSnapshotJson(article);
  const [head, beforeHead] = newest;
  // A delta below the head leads back from the head's text: replacing that text would break it.
  if (head && beforeHead?.kind !== 'delta' && collapses(head, article, write, now)) {
    await updateRevisionData(tx, article.id, head.n, {
      kind: 'snapshot',
      dataJson: snapshotJson,
      createdAt: now,
    });
    return { article, n: head.n };
  }
  const n = newestN + 1;
  // Its time by the clock the next autosave's collapse will be judged with (as a collapsed one's, above).
  await insertRevision(tx, { ...newRow(article, n, snapshotJson, write), createdAt: now }, newestN > 0);
  return { article, n };
}

/**
 * What a write must read of the article's newest revisions for recordRevisionOf: their heads when it may
 * collapse into the newest (an autosave, see `collapses`), else the newest's number alone.
 */
export function newestRevisionsRead(write: RevisionWrite): NewestRevisionsRead {
  return write.source === 'autosave' ? 'heads' : 'number';
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
  await insertRevisions(tx, firstRevisionRows(articles, write));
}

/** Revision 1 of each of the articles, as rows to insert (the importer sends them with its site links). */
export function firstRevisionRows(articles: readonly Article[], write: RevisionWrite): NewRevisionRow[] {
  return articles.map((article) => newRow(article, 1, articleSnapshotJson(article), write));
}

function newRow(article: Article, n: number, snapshotJson: string, write: RevisionWrite): NewRevisionRow {
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
    dataJson: snapshotJson,
  };
}

function collapses(head: RevisionHead, article: Article, write: RevisionWrite, now: Date): boolean {
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
