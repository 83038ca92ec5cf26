import { randomUUID } from 'node:crypto';
import { createSiteKey, type Db } from '@newsroom/domain';
import { sql } from 'kysely';

/** Test data for the client routes, written straight to the tables (as the dashboard or worker would). */

export async function insertSite(db: Db, slug: string): Promise<string> {
  const row = await db
    .insertInto('sites')
    .values({ slug, name: `Site ${slug}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function issueSiteKey(
  db: Db,
  siteId: string,
  name = 'test',
  kind: 'secret' | 'publishable' = 'secret',
): Promise<{ id: string; key: string }> {
  const created = await createSiteKey(db, siteId, name, kind);
  return { id: created.id, key: created.secret };
}

export interface ArticleSeed {
  title?: string;
  slug?: string;
  status?: 'draft' | 'pending' | 'published' | 'rejected';
  siteIds?: string[];
  publishedAt?: Date;
  aggregated?: boolean;
  tags?: string[];
  category?: string | null;
  section?: string | null;
  body?: string;
  excerpt?: string;
  /** Aggregated articles: the publisher's name (default 'Daily Planet'). */
  source?: string;
  sourcePublishedAt?: Date | null;
}

/** Inserts an article (published by default) and its host-site links in one transaction. */
export async function insertArticle(db: Db, seed: ArticleSeed = {}): Promise<{ id: string; slug: string }> {
  const status = seed.status ?? 'published';
  const slug = seed.slug ?? `article-${randomUUID().slice(0, 8)}`;
  const aggregated = seed.aggregated ?? false;
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .insertInto('articles')
      .values({
        title: seed.title ?? `Title of ${slug}`,
        slug,
        body: seed.body ?? `Body of ${slug}`,
        excerpt: seed.excerpt ?? '',
        tags: seed.tags ?? [],
        category: seed.category ?? null,
        section: seed.section ?? null,
        thumbnail: null,
        image: null,
        status,
        is_aggregated: aggregated,
        source: aggregated ? (seed.source ?? 'Daily Planet') : null,
        source_url: aggregated ? `https://planet.example/${slug}` : null,
        published_at: status === 'published' ? (seed.publishedAt ?? new Date()) : null,
        source_published_at: seed.sourcePublishedAt ?? null,
      })
      .returning(['id', 'slug'])
      .executeTakeFirstOrThrow();
    if (seed.siteIds?.length) {
      await tx
        .insertInto('article_sites')
        .values(seed.siteIds.map((siteId) => ({ article_id: row.id, site_id: siteId })))
        .execute();
    }
    return row;
  });
}

/** Distinct, decreasing publication times: minutesAgo(1) is newer than minutesAgo(2). */
export const minutesAgo = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 12, 0, 0) - minutes * 60_000);

/** Changes a title with triggers disabled (session_replication_role=replica): no notification is sent. */
export async function retitleWithoutTriggers(db: Db, slug: string, title: string): Promise<void> {
  await db.connection().execute(async (connection) => {
    await sql`set session_replication_role = replica`.execute(connection);
    await connection.updateTable('articles').set({ title }).where('slug', '=', slug).execute();
    await sql`set session_replication_role = default`.execute(connection);
  });
}
