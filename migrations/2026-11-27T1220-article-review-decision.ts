import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Reversible review (issue 26): when an administrator approved or rejected an article, and the optional reason
// the publisher sees. Both are null unless the article's current status is the result of a review decision:
// moving it back to pending (undo) or any other transition clears them. `reviewed_at` is also what tells an
// article published by approval (it may go back to pending) from a manual or auto-approved one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('articles')
    .addColumn('reviewed_at', 'timestamptz')
    .addColumn('review_reason', 'text')
    .execute();
  // The API bounds it at 500 characters; the table says so too, whoever writes.
  await sql`alter table articles add constraint articles_review_reason_length
    check (char_length(review_reason) between 1 and 500)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('articles').dropColumn('review_reason').dropColumn('reviewed_at').execute();
}
