/**
 * The revision write as it was before the compaction pass (commit 1e307d1), kept for `pnpm bench:history`
 * to measure against in the same run: in one transaction, the update, the article read with its two
 * newest revisions' data, the new snapshot built, the previous newest turned into its reverse delta in the
 * request, and one statement inserting the new row and rewriting the previous one. An editor's save only
 * (no autosave collapse), which is what the benchmark times.
 */
import { sql } from 'kysely';
import { toArticle } from '../packages/domain/src/articles/article';
import {
  hostSitesOf,
  rowVersion,
  updateArticleColumns,
} from '../packages/domain/src/articles/article.repository';
import { articleSnapshot } from '../packages/domain/src/articles/revisions/article-snapshot';
import { reverseDelta } from '../packages/domain/src/articles/revisions/revision-delta';
import type { Db } from '../packages/domain/src/db/create-db';

export async function previousEdit(db: Db, id: string, patch: { title: string; body: string }) {
  await db.transaction().execute(async (tx) => {
    await updateArticleColumns(tx, id, patch);
    // One round trip, as then: the article and its two newest revisions with their data.
    const row = await tx
      .selectFrom('articles')
      .selectAll('articles')
      .select(hostSitesOf)
      .select(rowVersion.as('version'))
      .select(
        sql<
          { n: number; data: Record<string, unknown> }[]
        >`(select coalesce(json_agg(r order by r.n desc), '[]')
          from (select n, data from article_revisions where article_id = articles.id order by n desc limit 2) r)`.as(
          'newest_revisions',
        ),
      )
      .where('articles.id', '=', id)
      .executeTakeFirstOrThrow();
    const { newest_revisions: rows, version: _version, ...articleRow } = row;
    const article = toArticle(articleRow);
    const snapshot = articleSnapshot(article);
    const head = rows[0];
    const n = (head?.n ?? 0) + 1;
    const inserted = sql`insert into article_revisions (article_id, n, actor_kind, actor_id, actor_label, source,
      status, kind, data) values (${id}, ${n}, 'user', 'bench-user', 'bench@example.com', 'editor',
      ${article.status}, 'snapshot', ${JSON.stringify(snapshot)})`;
    if (!head) await inserted.execute(tx);
    else {
      const delta = JSON.stringify(reverseDelta(snapshot, head.data));
      await sql`with inserted as (${inserted}) update article_revisions set kind = 'delta', data = ${delta}
        where article_id = ${id} and n = ${head.n}`.execute(tx);
    }
  });
}
