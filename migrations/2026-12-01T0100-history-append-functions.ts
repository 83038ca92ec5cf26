import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// Issue 30, revisions and audit at <= 10 % of a PUT: the two rows every article write adds cost less in Postgres.
// - `article_revision_append`: a write's revision (and its compaction queued) as one call of a PL/pgSQL function,
//   whose statements a session plans once: the held statement the writer sends with its COMMIT was an
//   INSERT ... WITH planned on every write. Same rows, same checks.
// - `audit_append`: the chain's head moved by one UPDATE ... RETURNING (it takes the row lock itself) instead of
//   SELECT ... FOR UPDATE then UPDATE: one heap change and one WAL record less per row. `head_prev_hash` (the
//   hash the newest row chains to) is what lets the UPDATE answer the previous head's hash; a waiting appender
//   re-reads the head after the one before it commits (EvalPlanQual), as the SELECT ... FOR UPDATE did.
// audit_append's signature and answer, unchanged (the audit-log migration's): only its body is replaced, both ways.
const auditAppendHead = sql.raw(`create or replace function audit_append(
      p_at timestamptz, p_actor_type text, p_actor_id uuid, p_actor_label text, p_address text, p_action text,
      p_object_type text, p_object_id text, p_site_id uuid, p_changes jsonb, p_body text, p_relaxed boolean
    ) returns table (seq bigint, prev_hash text, hash text) language plpgsql as $$`);

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function article_revision_append(
      p_article_id uuid, p_n integer, p_actor_kind text, p_actor_id text, p_actor_label text, p_source text,
      p_reason text, p_status text, p_kind text, p_data jsonb, p_created_at timestamptz, p_queue_compaction boolean
    ) returns void language plpgsql as $$
    begin
      if p_queue_compaction then
        insert into article_revision_compactions (article_id) values (p_article_id)
          on conflict (article_id) do nothing;
      end if;
      insert into article_revisions (article_id, n, actor_kind, actor_id, actor_label, source, reason, status, kind,
        data, created_at)
      values (p_article_id, p_n, p_actor_kind, p_actor_id, p_actor_label, p_source, p_reason, p_status, p_kind,
        p_data, coalesce(p_created_at, now()));
    end $$`.execute(db);

  await sql`alter table audit_chain add column head_prev_hash text`.execute(db);
  await sql`
    update audit_chain c set head_prev_hash = coalesce(
      (select l.prev_hash from audit_log l where l.seq = c.head_seq), c.start_prev_hash)`.execute(db);
  await sql`alter table audit_chain alter column head_prev_hash set not null`.execute(db);

  await sql`
    ${auditAppendHead}
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
        p_object_id, p_site_id, p_changes, chained_to, new_hash);
      return query select new_seq, chained_to, new_hash;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ${auditAppendHead}
    declare
      head_seq_now bigint;
      head_hash_now text;
      new_hash text;
    begin
      if p_relaxed then
        perform set_config('synchronous_commit', 'off', true);
      end if;
      select c.head_seq, c.head_hash into head_seq_now, head_hash_now from audit_chain c where c.id for update;
      new_hash := encode(sha256(convert_to(head_hash_now || (head_seq_now + 1)::text || p_body, 'UTF8')), 'hex');
      insert into audit_log (seq, at, actor_type, actor_id, actor_label, address, action, object_type, object_id,
        site_id, changes, prev_hash, hash)
      values (head_seq_now + 1, p_at, p_actor_type, p_actor_id, p_actor_label, p_address, p_action, p_object_type,
        p_object_id, p_site_id, p_changes, head_hash_now, new_hash);
      update audit_chain c set head_seq = head_seq_now + 1, head_hash = new_hash where c.id;
      return query select head_seq_now + 1, head_hash_now, new_hash;
    end $$`.execute(db);
  await sql`alter table audit_chain drop column head_prev_hash`.execute(db);
  await sql`drop function article_revision_append(uuid, integer, text, text, text, text, text, text, text, jsonb,
    timestamptz, boolean)`.execute(db);
}
