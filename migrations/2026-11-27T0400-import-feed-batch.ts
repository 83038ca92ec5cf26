import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Saving a batch of imported articles in one round trip instead of four (issue 17's steady hour): the slug
// bases locked and the slugs taken read (lock_slug_bases_find_taken), each article given the first free slug
// (its base, else base-2, base-3, ... as nextFreeSlug does in the domain), the rows inserted (ON CONFLICT on
// the publisher's guid skips those already imported) and linked to the publisher's default host sites.
// Each statement of this VOLATILE function runs with a fresh snapshot, so the links' BEFORE trigger
// (article_sites_copy_listing_columns) sees the rows just inserted, and the slug read sees every article
// committed by a writer that held one of the locks.
//
// With p_fetch, the call is a whole import of a one-batch feed: the publisher's row is locked first, and when
// p_fingerprint (when given) no longer matches the publisher's import settings (publisher_import_fingerprint: someone
// changed them since the caller read them and built the rows) nothing is written and the outcome is 'stale';
// otherwise the fetch is recorded (the same values as the domain's recordFeedFetchSuccess) with the rows.
export async function up(db: Kysely<any>): Promise<void> {
  // A table function of one SELECT: inlined into the statements that use it (FROM ... lateral), so it is planned
  // once with them (a prepared statement, a PL/pgSQL function's cached plan) instead of at every call.
  await sql`
    create function publisher_import_fingerprint(p_publisher uuid) returns table (fingerprint text)
    language sql stable as $$
      select md5(jsonb_build_array(
        p.name, p.default_tags, p.auto_approve, p.import_rules,
        (select coalesce(array_agg(d.site_id order by d.site_id), '{}')
           from publisher_default_sites d where d.publisher_id = p.id))::text)
      from publishers p where p.id = p_publisher
    $$`.execute(db);

  // The same function as before (migration 2026-11-24T0300), in PL/pgSQL: its two statements' plans are cached
  // per connection instead of planned at every call, as a SQL function's are. VOLATILE still: each statement
  // runs with a fresh snapshot, so the read sees every article committed by a writer that held a lock.
  await sql`
    create or replace function lock_slug_bases_find_taken(sorted_bases text[]) returns setof text
    language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(hashtextextended('slug:' || base, 0)) from unnest(sorted_bases) as base;
      return query
        select a.slug from unnest(sorted_bases) as b(base)
        cross join lateral (
          select slug from articles where slug ~>=~ b.base and slug ~<~ (b.base || '.') offset 0
        ) as a;
    end $$`.execute(db);

  await sql`
    create function import_feed_batch(
      p_publisher uuid, p_fingerprint text, p_fetch jsonb, p_articles jsonb,
      out outcome text, out inserted integer)
    language plpgsql volatile as $$
    declare
      v_bases text[];
      v_taken text[];
      v_slugs text[] := '{}';
      v_slug text;
      v_base text;
      v_n integer;
      v_ids uuid[];
    begin
      inserted := 0;
      if p_fetch is not null then
        perform 1 from publishers where id = p_publisher for update;
        if not found then
          outcome := 'missing';
          return;
        end if;
        if p_fingerprint is not null
           and p_fingerprint is distinct from (select f.fingerprint from publisher_import_fingerprint(p_publisher) f) then
          outcome := 'stale';
          return;
        end if;
        update publishers set
          etag = case when (p_fetch->>'not_modified')::boolean
                      then coalesce(p_fetch->>'etag', etag) else p_fetch->>'etag' end,
          last_modified = case when (p_fetch->>'not_modified')::boolean
                      then coalesce(p_fetch->>'last_modified', last_modified) else p_fetch->>'last_modified' end,
          last_fetched_at = (p_fetch->>'at')::timestamptz,
          last_error = null,
          consecutive_failures = 0,
          feed_gone_at = null,
          feed_body_hash = case when p_fetch ? 'body_hash' then p_fetch->>'body_hash' else feed_body_hash end,
          feed_refresh_seconds = case when p_fetch ? 'feed_refresh_seconds'
                      then (p_fetch->>'feed_refresh_seconds')::integer else feed_refresh_seconds end,
          next_fetch_after = case when p_fetch ? 'next_fetch_after'
                      then (p_fetch->>'next_fetch_after')::timestamptz else next_fetch_after end,
          updated_at = now()
        where id = p_publisher;
      end if;
      outcome := 'imported';

      select array_agg(distinct e->>'slug_base' order by e->>'slug_base') into v_bases
        from jsonb_array_elements(p_articles) as e;
      if v_bases is null then
        return;
      end if;
      v_taken := array(select lock_slug_bases_find_taken(v_bases));
      for v_base in select e->>'slug_base' from jsonb_array_elements(p_articles) with ordinality as t(e, n) order by n
      loop
        v_slug := v_base;
        v_n := 2;
        while v_slug = any(v_taken) loop
          v_slug := v_base || '-' || v_n;
          v_n := v_n + 1;
        end loop;
        v_taken := v_taken || v_slug;
        v_slugs := v_slugs || v_slug;
      end loop;

      with saved as (
        insert into articles (
          title, slug, body, excerpt, tags, category, section, thumbnail, image, status, is_aggregated,
          source, source_url, rss_feed_guid, publisher_id, published_at, source_published_at)
        select r.title, v_slugs[r.ordinality], r.body, r.excerpt, r.tags, r.category, r.section, r.thumbnail,
               r.image, r.status, r.is_aggregated, r.source, r.source_url, r.rss_feed_guid, r.publisher_id,
               r.published_at, r.source_published_at
          from jsonb_populate_recordset(null::articles, p_articles) with ordinality as r
         order by r.ordinality
        on conflict (publisher_id, rss_feed_guid) where rss_feed_guid is not null do nothing
        returning id)
      select array_agg(id) into v_ids from saved;
      inserted := coalesce(cardinality(v_ids), 0);
      -- Skipped when there is nothing to link: the statement's own triggers would run all the same.
      if inserted > 0 and exists (select 1 from publisher_default_sites where publisher_id = p_publisher) then
        insert into article_sites (article_id, site_id)
        select a.id, d.site_id
          from unnest(v_ids) as a(id)
          cross join publisher_default_sites d
         where d.publisher_id = p_publisher
        on conflict do nothing;
      end if;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists import_feed_batch(uuid, text, jsonb, jsonb)`.execute(db);
  await sql`drop function if exists publisher_import_fingerprint(uuid)`.execute(db);
  await sql`
    create or replace function lock_slug_bases_find_taken(sorted_bases text[]) returns setof text
    language sql volatile as $$
      select pg_advisory_xact_lock(hashtextextended('slug:' || base, 0)) from unnest(sorted_bases) as base;
      select a.slug from unnest(sorted_bases) as b(base)
      cross join lateral (
        select slug from articles where slug ~>=~ b.base and slug ~<~ (b.base || '.') offset 0
      ) as a;
    $$`.execute(db);
}
