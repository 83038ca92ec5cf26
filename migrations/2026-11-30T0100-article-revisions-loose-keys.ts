import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Issue 30, revisions at <= 10 % of a PUT: the foreign keys from `article_revisions` and
// `article_revision_compactions` to `articles` become "loose" (as GitLab names the practice for tables written
// on every request): their check on each insert (`select ... for key share` of the article, which on a row
// the write just updated writes a lock to the article's page and to the WAL) cost 0.2 ms of a 0.7 ms revision.
// What the keys guaranteed still holds:
// - no revision of an article that does not exist: revisions are inserted only in the transaction that writes
//   (or creates) their article, holding its row lock; a delete waits for that lock, and then removes them;
// - revisions go with their article: one statement-level trigger deletes the revisions and the queued
//   compaction of every deleted article (a publisher's deletion cascading to its articles included).
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table article_revisions drop constraint article_revisions_article_id_fkey`.execute(db);
  await sql`alter table article_revision_compactions
    drop constraint article_revision_compactions_article_id_fkey`.execute(db);
  await sql`
    create function delete_revisions_of_deleted_articles() returns trigger language plpgsql as $$
    begin
      delete from article_revisions r using deleted_articles d where r.article_id = d.id;
      delete from article_revision_compactions c using deleted_articles d where c.article_id = d.id;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger articles_delete_revisions after delete on articles
      referencing old table as deleted_articles
      for each statement execute function delete_revisions_of_deleted_articles()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger articles_delete_revisions on articles`.execute(db);
  await sql`drop function delete_revisions_of_deleted_articles()`.execute(db);
  await sql`delete from article_revisions r where not exists (select from articles a where a.id = r.article_id)`.execute(
    db,
  );
  await sql`alter table article_revisions add constraint article_revisions_article_id_fkey
    foreign key (article_id) references articles (id) on delete cascade`.execute(db);
  await sql`delete from article_revision_compactions c
    where not exists (select from articles a where a.id = c.article_id)`.execute(db);
  await sql`alter table article_revision_compactions add constraint article_revision_compactions_article_id_fkey
    foreign key (article_id) references articles (id) on delete cascade`.execute(db);
}
