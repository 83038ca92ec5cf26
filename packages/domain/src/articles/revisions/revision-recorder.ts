import type { Tx } from '../../db/create-db';
import type { Article } from '../article';
import {
  insertRevisions,
  lockNewestRevisions,
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
 * Records the article as it now is (read in the write's transaction, after the write) as its next
 * revision, in that same transaction. The previous newest revision becomes a delta against this one.
 * Returns the revision's number.
 */
export async function recordRevision(
  tx: Tx,
  article: Article,
  write: RevisionWrite,
  now: Date = new Date(),
): Promise<number> {
  const snapshot = articleSnapshot(article);
  const [head, beforeHead] = await lockNewestRevisions(tx, article.id);
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
    return head.n;
  }
  const n = (head?.n ?? 0) + 1;
  await insertRevisions(tx, [newRow(article, n, snapshot, write)]);
  if (head) {
    await updateRevisionData(tx, article.id, head.n, {
      kind: 'delta',
      data: reverseDelta(snapshot, head.data as ArticleSnapshot),
    });
  }
  return n;
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
