import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Issue 30, a PUT's revision and audit row at <= 10 % of a PUT without them: the edit's statement records the
// revision itself from the row its UPDATE wrote, so an edit is one statement and, with its audit row, one round trip.
// - `article_snapshot(articles, host_sites)`: the snapshot a revision keeps, as the API builds it
//   (articleSnapshotJson over toArticle and the host sites: camelCase keys, dates as JavaScript's toISOString writes
//   them, bylines and corrections as their mappers answer them, needsAltText derived).
//   test/article-snapshot-sql.test.ts holds it equal to the API's for articles of every shape. PL/pgSQL, its object
//   one simple expression (no executor) and its subqueries run only for bylines or corrections that exist: as a SQL
//   function it was planned on every call, which cost an edit about 0.5 ms. `article_snapshot_time` is stable (as
//   `to_char` is), so the planner inlines it.
// - `article_revision_record(articles, host_sites, …)`: the write's revision: an autosave collapsed into the newest
//   revision (the rule the recorder applied before, now in one place), else appended by article_revision_append.
//   Answers its number.
// - `article_not_written(id)`: raises no_data_found; an edit sent with its audit row in one text fails with it
//   when it matched no row, so the row is not committed alone.
// - `audit_append` answers its one row through OUT parameters instead of `returns table` (`return query select`):
//   one statement and one tuplestore fewer per audit row. Callers read it as before (`select * from`, `select from`).

// audit_append's arguments, unchanged since the audit-log migration.
const auditAppendArguments =
  sql.raw(`p_at timestamptz, p_actor_type text, p_actor_id uuid, p_actor_label text,
  p_address text, p_action text, p_object_type text, p_object_id text, p_site_id uuid, p_changes jsonb, p_body text,
  p_relaxed boolean`);
// Its body since 2026-12-01T0100 up to the answer: the chain's head moved, the row stored.
const auditAppendBody = sql.raw(`
    declare
      new_seq bigint;
      chained_to text;
      new_hash text;
    begin
      if p_relaxed then
        perform set_config('synchronous_commit', 'off', true);
      end if;
      update audit_chain c set
        head_seq = c.head_seq + 1,
        head_prev_hash = c.head_hash,
        head_hash = encode(sha256(convert_to(c.head_hash || (c.head_seq + 1)::text || p_body, 'UTF8')), 'hex')
      where c.id
      returning c.head_seq, c.head_prev_hash, c.head_hash into new_seq, chained_to, new_hash;
      insert into audit_log (seq, at, actor_type, actor_id, actor_label, address, action, object_type, object_id,
        site_id, changes, prev_hash, hash)
      values (new_seq, p_at, p_actor_type, p_actor_id, p_actor_label, p_address, p_action, p_object_type,
        p_object_id, p_site_id, p_changes, chained_to, new_hash);`);
const dropAuditAppend = sql`drop function audit_append(timestamptz, text, uuid, text, text, text, text, text, uuid,
  jsonb, text, boolean)`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function article_snapshot_time(t timestamptz) returns text language sql stable as $$
      select to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    $$`.execute(db);

  await sql`
    create function article_snapshot(a articles, host_sites text[]) returns jsonb language plpgsql stable as $$
    declare
      bylines jsonb := '[]';
      corrections jsonb := '[]';
    begin
      if jsonb_array_length(a.bylines) > 0 then
        bylines := (select jsonb_agg(jsonb_build_object(
            'name', coalesce(nullif(b.value -> 'name', 'null'), '""'),
            'url', coalesce(b.value -> 'url', 'null'),
            'userId', coalesce(b.value -> 'userId', 'null')) order by b.i)
          from jsonb_array_elements(a.bylines) with ordinality b(value, i));
      end if;
      if jsonb_array_length(a.corrections) > 0 then
        corrections := (select jsonb_agg(jsonb_build_object(
            'text', c.value -> 'text',
            'at', article_snapshot_time((c.value ->> 'at')::timestamptz),
            'by', coalesce(c.value -> 'by', 'null')) order by c.i)
          from jsonb_array_elements(a.corrections) with ordinality c(value, i));
      end if;
      -- No query of its own (no subquery): PL/pgSQL evaluates it as a simple expression, without an executor.
      return jsonb_build_object(
        'title', a.title, 'slug', a.slug, 'body', a.body, 'tags', to_jsonb(a.tags),
        'category', a.category, 'section', a.section, 'thumbnail', a.thumbnail, 'image', a.image,
        'thumbnailMeta', a.thumbnail_meta, 'imageMeta', a.image_meta, 'bylines', bylines,
        'standfirst', a.standfirst, 'corrections', corrections,
        'needsAltText', (a.thumbnail is not null and coalesce(a.thumbnail_meta ->> 'alt', '') = '')
          or (a.image is not null and coalesce(a.image_meta ->> 'alt', '') = ''),
        'hostSites', to_jsonb(coalesce(host_sites, '{}')),
        'status', a.status, 'isAggregated', a.is_aggregated, 'source', a.source, 'sourceUrl', a.source_url,
        'rssFeedGuid', a.rss_feed_guid, 'publisherId', a.publisher_id,
        'publishedAt', article_snapshot_time(a.published_at),
        'sourcePublishedAt', article_snapshot_time(a.source_published_at),
        'reviewedAt', article_snapshot_time(a.reviewed_at), 'reviewReason', a.review_reason,
        'embargoUntil', article_snapshot_time(a.embargo_until),
        'createdBy', a.created_by, 'submittedBy', a.submitted_by);
    end $$`.execute(db);

  await sql`
    create function article_revision_record(
      p_article articles, p_host_sites text[], p_actor_kind text, p_actor_id text, p_actor_label text, p_source text, p_reason text,
      p_at timestamptz, p_collapse_ms integer
    ) returns integer language plpgsql as $$
    declare
      head record;
      below_kind text;
    begin
      select r.n, r.created_at, r.actor_kind, r.actor_id, r.source, r.status, r.kind into head
        from article_revisions r where r.article_id = p_article.id order by r.n desc limit 1;
      if found and p_source = 'autosave' and head.source = 'autosave' and head.kind = 'snapshot'
        and head.actor_kind = p_actor_kind and head.actor_id is not distinct from p_actor_id
        and head.status = p_article.status::text and head.status <> 'published'
        and p_at - head.created_at < make_interval(secs => p_collapse_ms / 1000.0) then
        -- A delta below the head leads back from the head's text: replacing that text would break it.
        select r.kind into below_kind from article_revisions r
          where r.article_id = p_article.id and r.n < head.n order by r.n desc limit 1;
        if below_kind is distinct from 'delta' then
          update article_revisions set kind = 'snapshot', data = article_snapshot(p_article, p_host_sites), created_at = p_at
            where article_id = p_article.id and n = head.n;
          return head.n;
        end if;
      end if;
      -- As article_revision_append (the API's held call) does, without a call of its own.
      if head.n is not null then
        insert into article_revision_compactions (article_id) values (p_article.id) on conflict (article_id) do nothing;
      end if;
      insert into article_revisions (article_id, n, actor_kind, actor_id, actor_label, source, reason, status, kind,
        data, created_at)
      values (p_article.id, coalesce(head.n, 0) + 1, p_actor_kind, p_actor_id, p_actor_label, p_source, p_reason,
        p_article.status::text, 'snapshot', article_snapshot(p_article, p_host_sites), p_at);
      return coalesce(head.n, 0) + 1;
    end $$`.execute(db);

  await sql`
    create function article_not_written(p_id text) returns boolean language plpgsql as $$
    begin
      raise exception 'article % was not written', p_id using errcode = 'no_data_found';
    end $$`.execute(db);

  await dropAuditAppend.execute(db);
  await sql`
    create function audit_append(${auditAppendArguments}, out seq bigint, out prev_hash text, out hash text)
    language plpgsql as $$ ${auditAppendBody}
      seq := new_seq;
      prev_hash := chained_to;
      hash := new_hash;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await dropAuditAppend.execute(db);
  await sql`
    create function audit_append(${auditAppendArguments}) returns table (seq bigint, prev_hash text, hash text)
    language plpgsql as $$ ${auditAppendBody}
      return query select new_seq, chained_to, new_hash;
    end $$`.execute(db);
  await sql`drop function article_not_written(text)`.execute(db);
  await sql`drop function article_revision_record(articles, text[], text, text, text, text, text, timestamptz, integer)`.execute(
    db,
  );
  await sql`drop function article_snapshot(articles, text[])`.execute(db);
  await sql`drop function article_snapshot_time(timestamptz)`.execute(db);
}
