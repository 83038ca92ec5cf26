import { sql } from 'kysely';
import type { Tx } from '../../db/create-db';
import type { RevisionSource } from './revision-write';

/** A revision as the compaction pass reads it: enough to judge a collapse and rebuild the chain. */
export interface CompactedRevisionRow {
  articleId: string;
  n: number;
  createdAt: Date;
  source: RevisionSource;
  status: string;
  kind: 'snapshot' | 'delta';
  data: unknown;
}

/**
 * Claims up to `limit` queued articles that are due, each with its article row locked: queue rows and
 * articles another pass or a writer holds are skipped (FOR UPDATE SKIP LOCKED), so replicas never wait.
 */
export async function claimDueCompactions(tx: Tx, now: Date, limit: number): Promise<string[]> {
  const rows = await tx
    .selectFrom('article_revision_compactions as c')
    .innerJoin('articles as a', 'a.id', 'c.article_id')
    .select('c.article_id')
    .where('c.due_at', '<=', now)
    .orderBy('c.due_at')
    .limit(limit)
    .forUpdate(['c', 'a'])
    .skipLocked()
    .execute();
  return rows.map((row) => row.article_id);
}

/**
 * For each article, its revisions from its oldest whole snapshot up to the newest (newest first per
 * article): what it takes to turn every snapshot below the newest into a delta.
 */
export async function findChainsFromOldestSnapshot(
  tx: Tx,
  articleIds: readonly string[],
): Promise<CompactedRevisionRow[]> {
  if (articleIds.length === 0) return [];
  const rows = await tx
    .selectFrom('article_revisions as r')
    .select(['r.article_id', 'r.n', 'r.created_at', 'r.source', 'r.status', 'r.kind', 'r.data'])
    .where('r.article_id', 'in', [...articleIds])
    .where(
      'r.n',
      '>=',
      sql<number>`(select min(s.n) from article_revisions s
        where s.article_id = r.article_id and s.kind = 'snapshot')`,
    )
    .orderBy('r.article_id')
    .orderBy('r.n', 'desc')
    .execute();
  return rows.map((row) => ({
    articleId: row.article_id,
    n: row.n,
    createdAt: row.created_at,
    source: row.source,
    status: row.status,
    kind: row.kind,
    data: row.data,
  }));
}

/** The pass's writes in three statements at most: the deltas, the finished articles, the postponed ones. */
export async function saveCompactions(
  tx: Tx,
  deltas: readonly { articleId: string; n: number; dataJson: string }[],
  done: readonly string[],
  postponed: readonly { articleId: string; dueAt: Date }[],
): Promise<void> {
  if (deltas.length > 0) {
    await sql`update article_revisions r set kind = 'delta', data = d.data
      from unnest(${deltas.map((d) => d.articleId)}::uuid[], ${deltas.map((d) => d.n)}::int[],
        ${deltas.map((d) => d.dataJson)}::jsonb[]) as d(article_id, n, data)
      where r.article_id = d.article_id and r.n = d.n`.execute(tx);
  }
  if (done.length > 0) {
    await tx
      .deleteFrom('article_revision_compactions')
      .where('article_id', 'in', [...done])
      .execute();
  }
  if (postponed.length > 0) {
    await sql`update article_revision_compactions c set due_at = p.due_at
      from unnest(${postponed.map((p) => p.articleId)}::uuid[], ${postponed.map((p) => p.dueAt)}::timestamptz[])
        as p(article_id, due_at)
      where c.article_id = p.article_id`.execute(tx);
  }
}
