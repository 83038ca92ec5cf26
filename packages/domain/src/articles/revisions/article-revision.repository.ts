import { sql } from 'kysely';
import type { DbOrTx, Tx } from '../../db/create-db';
import { executeHeld, functionCallText } from '../../db/held-statements';
import type { ArticleStatus } from '../../db/tables';
import type { RevisionActorKind, RevisionSource } from './revision-write';

/** A revision row as the service reads it (data: a whole snapshot or a delta, by `kind`). */
export interface RevisionRow {
  n: number;
  createdAt: Date;
  actorKind: RevisionActorKind;
  actorId: string | null;
  actorLabel: string;
  source: RevisionSource;
  reason: string | null;
  status: ArticleStatus;
  kind: 'snapshot' | 'delta';
  data: unknown;
}

export interface NewRevisionRow {
  articleId: string;
  n: number;
  actorKind: RevisionActorKind;
  actorId: string | null;
  actorLabel: string;
  source: RevisionSource;
  reason: string | null;
  status: ArticleStatus;
  kind: 'snapshot' | 'delta';
  /** The data as JSON text (built once, sent as it is). */
  dataJson: string;
  /** When it was written, by the writer's clock (the one the autosave collapse compares); else the database's. */
  createdAt?: Date;
}

const columns = [
  'n',
  'created_at',
  'actor_kind',
  'actor_id',
  'actor_label',
  'source',
  'reason',
  'status',
  'kind',
  'data',
] as const;

export type Selected = {
  n: number;
  created_at: Date;
  actor_kind: RevisionActorKind;
  actor_id: string | null;
  actor_label: string;
  source: RevisionSource;
  reason: string | null;
  status: ArticleStatus;
  kind: 'snapshot' | 'delta';
  data: unknown;
};

export function toRevisionRow(row: Selected): RevisionRow {
  return {
    n: row.n,
    createdAt: row.created_at,
    actorKind: row.actor_kind,
    actorId: row.actor_id,
    actorLabel: row.actor_label,
    source: row.source,
    reason: row.reason,
    status: row.status,
    kind: row.kind,
    data: row.data,
  };
}

/** What the recorder needs of a revision to decide whether an autosave collapses into it: no data. */
export type RevisionHead = Omit<RevisionRow, 'data'>;

/**
 * A write's revision in one call (article_revision_append, whose statements a session plans once): the new row
 * and, when the article had revisions, its compaction queued (the previous newest stays whole until the worker's
 * pass turns it into a delta). Nothing reads its answer: held for the transaction's COMMIT (or its next
 * statement), no round trip of its own.
 */
export async function insertRevision(tx: Tx, row: NewRevisionRow, queueCompaction: boolean): Promise<void> {
  await executeHeld(
    tx,
    functionCallText('article_revision_append', [
      [row.articleId, 'uuid'],
      [row.n, 'integer'],
      [row.actorKind, 'text'],
      [row.actorId, 'text'],
      [row.actorLabel, 'text'],
      [row.source, 'text'],
      [row.reason, 'text'],
      [row.status, 'text'],
      [row.kind, 'text'],
      [row.dataJson, 'jsonb'],
      [row.createdAt ?? null, 'timestamptz'],
      [queueCompaction, 'boolean'],
    ]),
  );
}

/** Replaces one revision's stored data, given as JSON text (and, for a collapsed autosave, its time). */
export async function updateRevisionData(
  db: DbOrTx,
  articleId: string,
  n: number,
  change: { kind: 'snapshot' | 'delta'; dataJson: string; createdAt?: Date },
): Promise<void> {
  await db
    .updateTable('article_revisions')
    .set({
      kind: change.kind,
      data: change.dataJson,
      ...(change.createdAt && { created_at: change.createdAt }),
    })
    .where('article_id', '=', articleId)
    .where('n', '=', n)
    .execute();
}

/** One page of the article's revisions, newest first (below `before` when given), without their data. */
export async function listRevisionRows(
  db: DbOrTx,
  articleId: string,
  page: { limit: number; offset: number; before?: number },
): Promise<{ rows: Omit<RevisionRow, 'kind' | 'data'>[]; total: number }> {
  const { before } = page;
  const [rows, count] = await Promise.all([
    db
      .selectFrom('article_revisions')
      .select(['n', 'created_at', 'actor_kind', 'actor_id', 'actor_label', 'source', 'reason', 'status'])
      .where('article_id', '=', articleId)
      .$if(before !== undefined, (query) => query.where('n', '<', before as number))
      .orderBy('n', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
    db
      .selectFrom('article_revisions')
      .select(sql<string>`count(*)`.as('total'))
      .where('article_id', '=', articleId)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => {
      const { kind: _kind, data: _data, ...rest } = toRevisionRow({ ...row, kind: 'delta', data: null });
      return rest;
    }),
    total: Number(count.total),
  };
}

/** The revisions from `fromN` up to the newest, newest first: what it takes to rebuild revision `fromN`. */
export async function findRevisionChain(
  db: DbOrTx,
  articleId: string,
  fromN: number,
): Promise<RevisionRow[]> {
  const rows = await db
    .selectFrom('article_revisions')
    .select(columns)
    .where('article_id', '=', articleId)
    .where('n', '>=', fromN)
    .orderBy('n', 'desc')
    .execute();
  return rows.map((row) => toRevisionRow(row as Selected));
}

/** Every revision of the article, newest first (retention thinning rewrites the chain). */
export async function findAllRevisions(tx: Tx, articleId: string): Promise<RevisionRow[]> {
  const rows = await tx
    .selectFrom('article_revisions')
    .select(columns)
    .where('article_id', '=', articleId)
    .orderBy('n', 'desc')
    .forUpdate()
    .execute();
  return rows.map((row) => toRevisionRow(row as Selected));
}

export async function deleteRevisions(tx: Tx, articleId: string, ns: readonly number[]): Promise<void> {
  if (ns.length === 0) return;
  await tx
    .deleteFrom('article_revisions')
    .where('article_id', '=', articleId)
    .where('n', 'in', [...ns])
    .execute();
}

/** Articles with at least one revision that is not published, older than `before` and not the newest. */
export async function findArticlesWithOldDraftRevisions(db: DbOrTx, before: Date, limit: number) {
  const rows = await db
    .selectFrom('article_revisions as r')
    .select('r.article_id')
    .distinct()
    .where('r.created_at', '<', before)
    .where('r.status', '!=', 'published')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('article_revisions as newer')
          .select('newer.n')
          .whereRef('newer.article_id', '=', 'r.article_id')
          .whereRef('newer.n', '>', 'r.n'),
      ),
    )
    .limit(limit)
    .execute();
  return rows.map((row) => row.article_id);
}

/** Bytes the article's revisions take in their rows (Postgres' pg_column_size: after compression). */
export async function measureRevisionStorage(
  db: DbOrTx,
  articleId: string,
): Promise<{ revisions: number; dataBytes: number; rowBytes: number }> {
  const row = await db
    .selectFrom('article_revisions as r')
    .select([
      sql<string>`count(*)`.as('revisions'),
      sql<string>`coalesce(sum(pg_column_size(r.data)), 0)`.as('data_bytes'),
      sql<string>`coalesce(sum(pg_column_size(r.*)), 0)`.as('row_bytes'),
    ])
    .where('r.article_id', '=', articleId)
    .executeTakeFirstOrThrow();
  return {
    revisions: Number(row.revisions),
    dataBytes: Number(row.data_bytes),
    rowBytes: Number(row.row_bytes),
  };
}
