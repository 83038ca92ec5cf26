import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { createTestApp, testApiKey } from '../support/test-app';

// /client/all for a reader slower than the statement timeout: the download is read in short queries, one chunk
// at a time, so it neither dies at DATABASE_STATEMENT_TIMEOUT_MS nor holds a connection (or a snapshot, which
// would hold back the change feed's horizon) while the client is not reading.
const statementTimeoutMs = 300;
const { app, db, close } = await createTestApp({
  env: { DATABASE_STATEMENT_TIMEOUT_MS: String(statementTimeoutMs), DATABASE_QUERY_TIMEOUT_MS: '1000' },
  // The app's own pool, built with the configured timeouts as in production.
  routeDatabase: (url) => url,
});
afterAll(close);

const count = 15_000;
await sql`insert into articles (title, slug, body, status, published_at)
  select 'Slow ' || i, 'slow-' || i, '<p>' || repeat('y', 4000) || '</p>', 'published',
         now() - make_interval(mins => 10 + i)
  from generate_series(0, ${count - 1}) as i`.execute(db);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = (app.server.address() as AddressInfo) ?? { port: 0 };

/** Backends of the app's database busy with a query or inside a transaction (not ours). */
const busyBackends = async () =>
  Number(
    (
      await sql<{ n: string }>`select count(*) as n from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle'`.execute(db)
    ).rows[0]?.n,
  );

it('serves every article to a reader that pauses longer than the statement timeout, holding no connection meanwhile', async () => {
  let busyWhilePaused = -1;
  const body = await new Promise<string>((resolve, reject) => {
    const request = http.get(
      { host: '127.0.0.1', port, path: '/api/v1/client/all', headers: { 'x-api-key': testApiKey } },
      (response) => {
        const chunks: Buffer[] = [];
        let paused = false;
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          if (paused) return;
          paused = true;
          response.pause();
          setTimeout(async () => {
            busyWhilePaused = await busyBackends();
            setTimeout(() => response.resume(), statementTimeoutMs * 3);
          }, statementTimeoutMs);
        });
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
  const parsed = JSON.parse(body) as {
    data: Array<{ slug: string }>;
    meta: { pagination: { total: number } };
  };
  expect(parsed.data).toHaveLength(count);
  expect(new Set(parsed.data.map((article) => article.slug)).size).toBe(count);
  expect(parsed.data[0]?.slug).toBe('slow-0');
  expect(parsed.data.at(-1)?.slug).toBe(`slow-${count - 1}`);
  expect(parsed.meta.pagination.total).toBe(count);
  expect(busyWhilePaused).toBe(0);
});
