import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
//
// Scheduled publishing (issue 29): actions that publish or unpublish an article at a time, releases (actions that
// go live together, in one transaction), and the article's embargo.
//
// - `articles.embargo_until`: the article may not appear on any child-site route before this time. A published
//   article is never embargoed (the check below): the embargo is lifted by the transaction that publishes it,
//   so every read path, the change feed and the webhooks, which all key on status = 'published', hide an
//   embargoed article without knowing of embargoes, and no late or dead worker can ever make one leak early.
// - `scheduled_actions`: due rows are claimed by the worker with FOR UPDATE SKIP LOCKED (partial index on due_at
//   of the scheduled ones); a row is never deleted (done, failed and cancelled rows are the record, with ran_at
//   and lateness_ms). article_id has no foreign key: an action whose article was deleted fails with a reason.
// - `releases`: a name and a due time; its actions carry release_id and run together in one transaction.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table articles add column embargo_until timestamptz`.execute(db);
  await sql`
    alter table articles add constraint articles_published_not_embargoed
      check (status <> 'published' or embargo_until is null)`.execute(db);

  await sql`
    create table releases (
      id uuid primary key default gen_random_uuid(),
      name text not null check (length(name) between 1 and 200),
      due_at timestamptz not null,
      status text not null default 'scheduled' check (status in ('scheduled', 'done', 'failed', 'cancelled')),
      created_by uuid references users(id) on delete set null,
      ran_at timestamptz,
      lateness_ms bigint,
      failure_reason text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index releases_due_idx on releases (due_at) where status = 'scheduled'`.execute(db);

  await sql`
    create table scheduled_actions (
      id uuid primary key default gen_random_uuid(),
      article_id uuid not null,
      kind text not null check (kind in ('publish', 'unpublish')),
      due_at timestamptz not null,
      status text not null default 'scheduled' check (status in ('scheduled', 'done', 'failed', 'cancelled')),
      release_id uuid references releases(id) on delete cascade,
      created_by uuid references users(id) on delete set null,
      ran_at timestamptz,
      lateness_ms bigint,
      failure_reason text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  // The worker's claim: lone scheduled actions by due time (release actions are claimed through their release).
  await sql`
    create index scheduled_actions_due_idx on scheduled_actions (due_at)
     where status = 'scheduled' and release_id is null`.execute(db);
  await sql`create index scheduled_actions_article_idx on scheduled_actions (article_id, due_at)`.execute(db);
  await sql`create index scheduled_actions_release_idx on scheduled_actions (release_id)`.execute(db);
  await sql`create index scheduled_actions_list_idx on scheduled_actions (due_at)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop table if exists scheduled_actions`.execute(db);
  await sql`drop table if exists releases`.execute(db);
  await sql`alter table articles drop constraint if exists articles_published_not_embargoed`.execute(db);
  await sql`alter table articles drop column if exists embargo_until`.execute(db);
}
