import type { DbOrTx } from '@newsroom/domain';
import { createTestDatabase } from '@newsroom/test-support';
import { type RawBuilder, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { clientVisibleTables } from '../../src/delivery/client-visible-tables';

// The client caches are true only while every client-visible write fires the triggers of
// apps/api/src/delivery/README.md. This reads the migrated database's triggers from pg_trigger and checks them
// against clientVisibleTables, so a new client-visible table or column without its trigger fails here.

const database = await createTestDatabase();
afterAll(() => database.destroy());

interface TriggerRow {
  table: string;
  name: string;
  fn: string;
  type: number;
  enabled: string;
  columns: string[];
}

// pg_trigger.tgtype bits (src/include/catalog/pg_trigger.h).
const bits = { row: 1, before: 2, insert: 4, delete: 8, update: 16, truncate: 32 } as const;
type Event = 'insert' | 'update' | 'delete' | 'truncate';

async function triggersOf(db: DbOrTx): Promise<TriggerRow[]> {
  const { rows } = await sql<TriggerRow>`
    select c.relname as table, t.tgname as name, p.proname as fn, t.tgtype::int as type, t.tgenabled as enabled,
           array(select a.attname::text from unnest(t.tgattr) k
                   join pg_attribute a on a.attrelid = t.tgrelid and a.attnum = k) as columns
      from pg_trigger t
      join pg_class c on c.oid = t.tgrelid
      join pg_namespace n on n.oid = c.relnamespace
      join pg_proc p on p.oid = t.tgfoid
     where not t.tgisinternal and n.nspname = current_schema()`.execute(db);
  return rows;
}

/** Whether an enabled trigger calling a function whose name starts with `fn` fires on `event` of `table` (for an update, of every one of `columns`). */
function fires(
  triggers: TriggerRow[],
  table: string,
  fn: string,
  event: Event,
  columns: readonly string[] = [],
) {
  return triggers.some(
    (t) =>
      t.table === table &&
      t.fn.startsWith(fn) &&
      (t.enabled === 'O' || t.enabled === 'A') && // D: disabled, R: fires only on replicas
      (t.type & bits[event]) !== 0 &&
      (event !== 'update' || t.columns.length === 0 || columns.every((column) => t.columns.includes(column))),
  );
}

/** What the database lacks of the contract, one line per missing trigger (empty: the contract holds). */
async function contractBreaches(db: DbOrTx): Promise<string[]> {
  const triggers = await triggersOf(db);
  // The notification is sent AFTER the write, once per statement (the change feed needs no more).
  const notifying = triggers.filter((t) => (t.type & (bits.before | bits.row)) === 0);
  // Deletion must touch the articles BEFORE the cascade removes their article_sites rows.
  const beforeRows = triggers.filter((t) => (t.type & bits.row) !== 0 && (t.type & bits.before) !== 0);
  const breaches: string[] = [];
  for (const [table, { columns, touchesArticlesOn, namesSites }] of Object.entries(clientVisibleTables)) {
    for (const event of ['insert', 'update', 'delete', 'truncate'] as const) {
      if (!fires(notifying, table, 'notify_content_changed', event, columns)) {
        breaches.push(
          `${table}: no notify_content_changed() on ${event}${event === 'update' ? ` of ${columns}` : ''}`,
        );
      } else if (namesSites && event !== 'truncate') {
        // A notification naming no site would leave every site's cached responses in place.
        const bare = notifying.some(
          (t) => t.table === table && t.fn === 'notify_content_changed' && (t.type & bits[event]) !== 0,
        );
        if (bare || !fires(notifying, table, 'notify_content_changed_', event, columns)) {
          breaches.push(
            `${table}: ${event} does not notify through a site-naming notify_content_changed_*()`,
          );
        }
      }
    }
    if (touchesArticlesOn) {
      if (!fires(triggers, table, 'touch_articles', 'update', touchesArticlesOn)) {
        breaches.push(`${table}: no touch_articles*() on update of ${touchesArticlesOn}`);
      }
      if (!fires(beforeRows, table, 'touch_articles', 'delete')) {
        breaches.push(`${table}: no touch_articles*() before delete`);
      }
    }
  }
  return breaches;
}

/** Runs `change` (DDL) and the check in one transaction that is rolled back, so cases do not affect each other. */
async function breachesAfter(change: RawBuilder<unknown>): Promise<string[]> {
  return database.db.connection().execute(async (connection) => {
    await sql`begin`.execute(connection);
    try {
      await change.execute(connection);
      return await contractBreaches(connection);
    } finally {
      await sql`rollback`.execute(connection);
    }
  });
}

describe('client read path trigger contract', () => {
  it('holds on the migrated database: every client-visible table notifies on insert, update, delete, truncate', async () => {
    expect(await contractBreaches(database.db)).toEqual([]);
  });

  it.each(Object.keys(clientVisibleTables))(
    'reports %s when its notify trigger is dropped',
    async (table) => {
      // Every trigger named <table>_notify_content_changed or <table>_notify_content_changed_<event>.
      const breaches = await breachesAfter(sql`
        do $$ declare name text; begin
          for name in select tgname from pg_trigger
                       where tgrelid = ${sql.lit(table)}::regclass and not tgisinternal
                         and (tgname = ${sql.lit(`${table}_notify_content_changed`)}
                              or tgname like ${sql.lit(`${table}_notify_content_changed_%`)}) loop
            execute format('drop trigger %I on %I', name, ${sql.lit(table)});
          end loop;
        end $$`);
      expect(breaches.length).toBeGreaterThan(0);
      expect(breaches.every((line) => line.startsWith(`${table}: `))).toBe(true);
      expect(breaches.some((line) => line.includes('on insert'))).toBe(true);
    },
  );

  it('reports an update trigger that misses a client-visible column', async () => {
    const breaches = await breachesAfter(sql`
      drop trigger site_api_keys_access_notify_content_changed on site_api_keys;
      create trigger site_api_keys_access_notify_content_changed
      after update of site_id, key_hash on site_api_keys
      for each statement execute function notify_content_changed()`);
    expect(breaches).toEqual([
      'site_api_keys: no notify_content_changed() on update of site_id,key_hash,revoked_at,kind',
    ]);
  });

  it('reports a site-scoped table notifying without naming its sites', async () => {
    expect(
      await breachesAfter(sql`
        drop trigger article_sites_notify_content_changed_update on article_sites;
        create trigger article_sites_notify_content_changed_update after update on article_sites
        for each statement execute function notify_content_changed()`),
    ).toEqual(['article_sites: update does not notify through a site-naming notify_content_changed_*()']);
  });

  it('reports a disabled trigger and a missing touch of articles', async () => {
    expect(
      await breachesAfter(sql`alter table articles disable trigger articles_notify_content_changed_insert`),
    ).toEqual(['articles: no notify_content_changed() on insert']);
    expect(await breachesAfter(sql`drop trigger sites_delete_touches_articles on sites`)).toEqual([
      'sites: no touch_articles*() before delete',
    ]);
  });
});
