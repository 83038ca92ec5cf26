import type { Tx } from '../../db/create-db';
import { NotFoundError } from '../../errors';
import type { Article, VersionedArticle } from '../article';
import { insertRevision, type NewRevisionRow } from './article-revision.repository';
import { articleSnapshotJson } from './article-snapshot';
import { type ArticleWithNewestRevision, findArticleWithNewestRevision } from './revision-heads.repository';
import type { RevisionWrite } from './revision-write';

/**
 * Autosaves of one person closer together than this collapse into one revision (the newest text, the
 * latest time): a morning of typing is a handful of revisions, not hundreds. A manual save, another
 * person, a status change or a pause this long starts a new one. Autosaves are edits (`PUT /article/:id`), whose
 * revision the database records with the write (`article_revision_record`, article-edit.repository.ts), this rule
 * with it.
 */
export const autosaveCollapseMs = 5 * 60_000;

/**
 * Records the article as it now is (read in the write's transaction, after the write, as the admin API
 * reads it) as its next revision, in that same transaction, and answers the article. The caller holds the
 * article's row lock (its write took it). One round trip: the read (with the newest revision's number); the
 * statement writing the new revision whole and queueing the previous one's conversion into a delta
 * (`compactArticleRevisions`, run by the worker) is held for the COMMIT.
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
  const found = await findArticleWithNewestRevision(tx, id);
  if (!found) throw new NotFoundError('article', id);
  return recordRevisionOf(tx, found, write, now);
}

/** Records the revision of an article already in hand with its newest revision's number. */
async function recordRevisionOf(
  tx: Tx,
  { article, newestN }: ArticleWithNewestRevision,
  write: RevisionWrite,
  now: Date,
): Promise<{ article: VersionedArticle; n: number }> {
  const n = newestN + 1;
  const row = newRow(article, n, articleSnapshotJson(article), write);
  await insertRevision(tx, { ...row, createdAt: now }, newestN > 0);
  return { article, n };
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

/** A reason trimmed, at most 500 characters (the column's check); blank is none. */
export function normaliseRevisionReason(reason: string | null | undefined): string | null {
  const trimmed = reason?.trim() ?? '';
  return trimmed === '' ? null : trimmed.slice(0, 500);
}
