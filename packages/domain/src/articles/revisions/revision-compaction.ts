import type { Db } from '../../db/create-db';
import type { ArticleSnapshot } from './article-snapshot';
import {
  type CompactedRevisionRow,
  claimDueCompactions,
  findChainsFromOldestSnapshot,
  saveCompactions,
} from './revision-compaction.repository';
import { applyDelta, reverseDelta, type SnapshotDelta } from './revision-delta';
import { autosaveCollapseMs } from './revision-recorder';

/**
 * How long after an autosave its predecessor waits to become a delta: the collapse window twice over, so
 * a clock between the API's and the worker's cannot let an autosave collapse over a delta (the recorder
 * refuses that anyway and starts a new revision).
 */
export const compactionDelayMs = 2 * autosaveCollapseMs;

/**
 * The deferred half of recording a revision (docs/revisions.md, "Storage"): a write stores its revision
 * whole and queues the article; this turns every whole snapshot below an article's newest revision into
 * the reverse delta against the revision after it. Batches of `batchSize` articles, each batch one
 * transaction holding the articles' row locks (as writers do), at most `maxBatches` per call; articles a
 * writer or another replica holds are skipped and stay queued. A snapshot whose successor is an autosave
 * that may still collapse is postponed to when it no longer can. Returns the revisions compacted.
 */
export async function compactArticleRevisions(
  db: Db,
  options: { now?: Date; batchSize?: number; maxBatches?: number } = {},
): Promise<{ articles: number; revisions: number }> {
  const { now = new Date(), batchSize = 100, maxBatches = 20 } = options;
  let articles = 0;
  let revisions = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const claimed = await db.transaction().execute(async (tx) => {
      const ids = await claimDueCompactions(tx, now, batchSize);
      const rows = await findChainsFromOldestSnapshot(tx, ids);
      const plan = planCompactions(ids, rows, now);
      await saveCompactions(tx, plan.deltas, plan.done, plan.postponed);
      revisions += plan.deltas.length;
      return ids.length;
    });
    articles += claimed;
    if (claimed < batchSize) break;
  }
  return { articles, revisions };
}

interface CompactionPlan {
  deltas: { articleId: string; n: number; dataJson: string }[];
  done: string[];
  postponed: { articleId: string; dueAt: Date }[];
}

/** What to write for the claimed articles, from their chains (newest first per article). */
export function planCompactions(
  ids: readonly string[],
  rows: readonly CompactedRevisionRow[],
  now: Date,
): CompactionPlan {
  const plan: CompactionPlan = { deltas: [], done: [], postponed: [] };
  const chains = new Map<string, CompactedRevisionRow[]>();
  for (const row of rows) {
    const chain = chains.get(row.articleId);
    if (chain) chain.push(row);
    else chains.set(row.articleId, [row]);
  }
  for (const articleId of ids) {
    const chain = chains.get(articleId) ?? [];
    const head = chain[0];
    const headMayCollapse = head !== undefined && mayStillCollapse(head, now);
    let newer: ArticleSnapshot = {};
    chain.forEach((row, index) => {
      const snapshot =
        row.kind === 'snapshot'
          ? (row.data as ArticleSnapshot)
          : applyDelta(newer, row.data as SnapshotDelta);
      // The revision just below an autosave that may still collapse waits: the collapse rewrites its successor.
      if (index > 0 && row.kind === 'snapshot' && !(index === 1 && headMayCollapse)) {
        plan.deltas.push({ articleId, n: row.n, dataJson: JSON.stringify(reverseDelta(newer, snapshot)) });
      }
      newer = snapshot;
    });
    const waiting = headMayCollapse && chain[1]?.kind === 'snapshot';
    if (waiting && head) {
      plan.postponed.push({ articleId, dueAt: new Date(head.createdAt.getTime() + compactionDelayMs) });
    } else plan.done.push(articleId);
  }
  return plan;
}

/** Whether a later autosave could still collapse into this newest revision (see the recorder). */
function mayStillCollapse(head: CompactedRevisionRow, now: Date): boolean {
  return (
    head.source === 'autosave' &&
    head.status !== 'published' &&
    now.getTime() - head.createdAt.getTime() < compactionDelayMs
  );
}
