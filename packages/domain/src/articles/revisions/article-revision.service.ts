import type { DbOrTx } from '../../db/create-db';
import { DomainValidationError, NotFoundError } from '../../errors';
import { offsetOf, type Page, type PageRequest } from '../../shared/page';
import { articleExists } from '../article.repository';
import { findRevisionChain, listRevisionRows, type RevisionRow } from './article-revision.repository';
import type { ArticleSnapshot } from './article-snapshot';
import { applyDelta, type SnapshotDelta } from './revision-delta';
import { type BodyDiffPart, diffBodies, diffSnapshots, type FieldChange } from './revision-diff';
import type { RevisionActor, RevisionSource } from './revision-write';

/** A revision as listed: who, when, from where, why, and the status the article had. */
export interface RevisionSummary {
  n: number;
  createdAt: Date;
  actor: RevisionActor;
  source: RevisionSource;
  reason: string | null;
  status: string;
}

export interface ArticleRevision extends RevisionSummary {
  snapshot: ArticleSnapshot;
}

export interface RevisionDiff {
  from: RevisionSummary;
  to: RevisionSummary;
  /** Every field that differs, the body included (whole values). */
  fields: FieldChange[];
  /** The body as an HTML-aware text diff (empty when both bodies are empty). */
  body: BodyDiffPart[];
}

function summaryOf(row: Omit<RevisionRow, 'kind' | 'data'>): RevisionSummary {
  return {
    n: row.n,
    createdAt: row.createdAt,
    actor: { kind: row.actorKind, id: row.actorId, label: row.actorLabel },
    source: row.source,
    reason: row.reason,
    status: row.status,
  };
}

/**
 * The article's revisions, newest first; with `before`, only those numbered below it (keyset: the History
 * panel's "Show older"). `total` counts them all. NotFoundError for an unknown article.
 */
export async function listArticleRevisions(
  db: DbOrTx,
  articleId: string,
  page: PageRequest,
  before?: number,
): Promise<Page<RevisionSummary>> {
  if (!(await articleExists(db, articleId))) throw new NotFoundError('article', articleId);
  const { rows, total } = await listRevisionRows(db, articleId, {
    limit: page.limit,
    offset: offsetOf(page),
    before,
  });
  return { items: rows.map(summaryOf), total };
}

/**
 * Revision `n` with its whole snapshot: the newest stored whole, each delta applied down to `n`.
 * NotFoundError for an unknown article or revision.
 */
export async function getArticleRevision(db: DbOrTx, articleId: string, n: number): Promise<ArticleRevision> {
  const chain = await findRevisionChain(db, articleId, n);
  const target = chain.at(-1);
  if (!target || target.n !== n) throw new NotFoundError('revision', `${articleId}/${n}`);
  return { ...summaryOf(target), snapshot: rebuild(chain) };
}

/** The snapshot of the last (oldest) row of a chain read newest first. */
function rebuild(chain: readonly RevisionRow[]): ArticleSnapshot {
  let snapshot: ArticleSnapshot = {};
  for (const row of chain) {
    snapshot =
      row.kind === 'snapshot'
        ? (row.data as ArticleSnapshot)
        : applyDelta(snapshot, row.data as SnapshotDelta);
  }
  return snapshot;
}

/** What changed from revision `from` to revision `to` (any two, either order). */
export async function diffArticleRevisions(
  db: DbOrTx,
  articleId: string,
  from: number,
  to: number,
): Promise<RevisionDiff> {
  if (from === to) {
    throw new DomainValidationError('SAME_REVISION', 'Compare two different revisions');
  }
  const chain = await findRevisionChain(db, articleId, Math.min(from, to));
  const older = chain.at(-1);
  if (!older || older.n !== Math.min(from, to)) {
    throw new NotFoundError('revision', `${articleId}/${Math.min(from, to)}`);
  }
  const byN = new Map<number, ArticleRevision>();
  let snapshot: ArticleSnapshot = {};
  for (const row of chain) {
    snapshot =
      row.kind === 'snapshot'
        ? (row.data as ArticleSnapshot)
        : applyDelta(snapshot, row.data as SnapshotDelta);
    if (row.n === from || row.n === to) byN.set(row.n, { ...summaryOf(row), snapshot });
  }
  const a = byN.get(from);
  const b = byN.get(to);
  if (!a) throw new NotFoundError('revision', `${articleId}/${from}`);
  if (!b) throw new NotFoundError('revision', `${articleId}/${to}`);
  const { snapshot: fromSnapshot, ...fromSummary } = a;
  const { snapshot: toSnapshot, ...toSummary } = b;
  return {
    from: fromSummary,
    to: toSummary,
    fields: diffSnapshots(fromSnapshot, toSnapshot),
    body: diffBodies(String(fromSnapshot.body ?? ''), String(toSnapshot.body ?? '')),
  };
}
