import { type Kysely, sql } from 'kysely';

// Frozen in time: Kysely<any>, no application types.
// The audit log (issue 30): append-only and hash-chained. `seq` is given by the appender under the lock of the
// one-row `audit_chain` (not a sequence: sequences leave gaps on rollback, and a gap must mean a deleted row).
// `hash` = sha256(prev_hash || canonical JSON of the row); `audit_chain` holds the head (last seq and hash, what
// the next append chains to) and the start (first seq still kept and the hash it chains to, moved by pruning).
// A trigger refuses UPDATE, TRUNCATE and any DELETE outside `audit_prune_batch`, the one pruning path.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table audit_log (
      seq bigint primary key,
      at timestamptz not null,
      actor_type text not null check (actor_type in ('user', 'publisher', 'system', 'anonymous')),
      actor_id uuid,
      actor_label text,
      address text,
      action text not null,
      object_type text not null,
      object_id text,
      site_id uuid,
      changes jsonb,
      prev_hash text not null,
      hash text not null
    )`.execute(db);
  // Filters: time range, actor, action, object, site; each newest first by seq (the keyset).
  await sql`create index audit_log_at on audit_log (at)`.execute(db);
  await sql`create index audit_log_actor on audit_log (actor_id, seq) where actor_id is not null`.execute(db);
  await sql`create index audit_log_action on audit_log (action, seq)`.execute(db);
  await sql`create index audit_log_object on audit_log (object_type, object_id, seq)`.execute(db);
  await sql`create index audit_log_site on audit_log (site_id, seq) where site_id is not null`.execute(db);

  await sql`
    create table audit_chain (
      id boolean primary key default true check (id),
      head_seq bigint not null,
      head_hash text not null,
      start_seq bigint not null,
      start_prev_hash text not null
    )`.execute(db);
  // The genesis: nothing appended yet; the first row gets seq 1 and chains to 64 zeros.
  await sql`insert into audit_chain (head_seq, head_hash, start_seq, start_prev_hash)
    values (0, repeat('0', 64), 1, repeat('0', 64))`.execute(db);

  await sql`
    create function audit_log_refuse_change() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' and current_setting('newsroom.audit_prune', true) = 'on' then
        return old;
      end if;
      raise exception 'audit_log is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
    end $$`.execute(db);
  await sql`create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function audit_log_refuse_change()`.execute(db);
  await sql`create trigger audit_log_no_truncate before truncate on audit_log
    for each statement execute function audit_log_refuse_change()`.execute(db);

  // One append in one statement (one round trip): lock the head, number the row, hash it, store it, move the head.
  // hash = sha256(prev_hash || seq || body), where body is the canonical JSON of the row's other fields, made by
  // the appender (packages/domain/src/audit/audit-event.ts says how) and remade from the columns by the verifier.
  // `relaxed`: this statement is its own transaction; its commit need not wait for the WAL flush.
  await sql`
    create function audit_append(
      p_at timestamptz, p_actor_type text, p_actor_id uuid, p_actor_label text, p_address text, p_action text,
      p_object_type text, p_object_id text, p_site_id uuid, p_changes jsonb, p_body text, p_relaxed boolean
    ) returns table (seq bigint, prev_hash text, hash text) language plpgsql as $$
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

  // The only deleting path: the oldest rows before the cut-off, at most batch_size of them, and the chain's start
  // moved past them in the same transaction (so verification starts there). Returns how many rows went.
  await sql`
    create function audit_prune_batch(cutoff timestamptz, batch_size integer) returns integer
    language plpgsql security definer set search_path = public as $$
    declare
      last_seq bigint;
      last_hash text;
      removed integer;
    begin
      perform 1 from audit_chain where id for update;
      select seq, hash into last_seq, last_hash from (
        select seq, hash from audit_log where at < cutoff order by seq limit batch_size
      ) oldest order by seq desc limit 1;
      if last_seq is null then
        return 0;
      end if;
      perform set_config('newsroom.audit_prune', 'on', true);
      delete from audit_log where seq <= last_seq;
      get diagnostics removed = row_count;
      perform set_config('newsroom.audit_prune', 'off', true);
      update audit_chain set start_seq = last_seq + 1, start_prev_hash = last_hash where id;
      return removed;
    end $$`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function audit_prune_batch(timestamptz, integer)`.execute(db);
  await sql`drop function audit_append(timestamptz, text, uuid, text, text, text, text, text, uuid, jsonb, text, boolean)`.execute(
    db,
  );
  await sql`drop table audit_chain`.execute(db);
  await sql`drop table audit_log`.execute(db);
  await sql`drop function audit_log_refuse_change()`.execute(db);
}
