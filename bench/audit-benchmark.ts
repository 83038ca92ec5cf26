/**
 * Audit overhead benchmark (`pnpm bench:audit`): figures printed, nothing asserted. What the audit log adds to
 * `PUT /api/v1/article/:id`: two apps on one fresh database, the real one (each write's hash-chained row is the
 * last statement of its transaction, sent with the COMMIT) and the same app built without the audit routes hook;
 * and, for comparison, the former design: the audit-less app's PUT followed by the row appended alone
 * (`appendAuditEvent` on the pool, its own statement and commit). Requests go through `app.inject` one at a time
 * (latency, not throughput), the three alternating in rounds so the shared machine's drift hits all alike. p50
 * and p99 of each, and their ratio to the audit-less app. Loopback Postgres only; bounded by BENCH_REQUESTS.
 */

import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { appendAuditEvent, createDb } from '@newsroom/domain';
import { migrateToLatest } from '@newsroom/migrations';
import { createRedisConnection } from '@newsroom/queue';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/api/src/app';
import { benchAdmin, benchApiConfig } from './in-process-api';
import { log } from './log';
import { percentile } from './percentile';

const serverUrl = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const requests = Number(process.env.BENCH_REQUESTS ?? 2_000);
const rounds = 10;

async function main() {
  const name = `bench_audit_${randomBytes(4).toString('hex')}`;
  const server = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: serverUrl, max: 1 }) }),
  });
  await sql`create database ${sql.id(name)}`.execute(server);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDb({ connectionString: url.toString(), max: 8, applicationName: 'newsroom-bench' });
  const redis = createRedisConnection(redisUrl, 'producer');
  const config = benchApiConfig(url.toString(), redisUrl, `bench-audit-${randomBytes(4).toString('hex')}`);
  const apps = {
    audited: await buildApp({ config, db, redis }),
    unaudited: await buildApp({ config, db, redis, auditRoutes: false }),
  };
  try {
    await migrateToLatest(db as unknown as Kysely<unknown>);
    const { id, headers } = await benchAdmin(apps.audited, db, 'bench@example.com');
    const articles: string[] = [];
    for (let i = 0; i < 50; i++) {
      const created = await apps.audited.inject({
        method: 'POST',
        url: '/api/v1/article',
        headers,
        payload: { title: `Bench article ${i}`, body: `<p>${'Words of the article. '.repeat(200)}</p>` },
      });
      articles.push(created.json().id);
    }
    type Variant = 'audited' | 'unaudited' | 'alone';
    const timings: Record<Variant, number[]> = { audited: [], unaudited: [], alone: [] };
    let n = 0;
    const put = async (which: Variant, record: boolean) => {
      n += 1;
      const started = performance.now();
      const url = `/api/v1/article/${articles[n % articles.length]}`;
      const payload = { title: `Edited ${n}`, tags: ['bench', `t${n % 7}`] };
      const response = await apps[which === 'audited' ? 'audited' : 'unaudited'].inject({
        method: 'PUT',
        url,
        headers,
        payload,
      });
      if (which === 'alone')
        await appendAuditEvent(db, {
          actor: { type: 'user', id, label: 'bench@example.com' },
          address: '127.0.0.1',
          action: 'updateArticle',
          objectType: 'article',
          objectId: articles[n % articles.length] as string,
          siteId: null,
          changes: { after: payload },
        });
      const elapsed = performance.now() - started;
      if (response.statusCode !== 200)
        throw new Error(`PUT answered ${response.statusCode}: ${response.body}`);
      if (record) timings[which].push(elapsed);
    };
    // Warm-up of both (JIT, prepared statements, pools).
    for (let i = 0; i < 100; i++) {
      await put('audited', false);
      await put('unaudited', false);
      await put('alone', false);
    }
    const perRound = Math.ceil(requests / rounds);
    for (let round = 0; round < rounds; round++) {
      const orders: Variant[][] = [
        ['unaudited', 'audited', 'alone'],
        ['audited', 'alone', 'unaudited'],
        ['alone', 'unaudited', 'audited'],
      ];
      const order = orders[round % orders.length] as Variant[];
      for (const which of order) for (let i = 0; i < perRound; i++) await put(which, true);
    }
    const rows = await db
      .selectFrom('audit_log')
      .select(db.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    log(
      `PUT /api/v1/article/:id, ${perRound * rounds} requests per app, sequential, ${rounds} alternating rounds`,
    );
    const figures = Object.fromEntries(
      (Object.keys(timings) as Variant[]).map((which) => {
        const sorted = [...timings[which]].sort((a, b) => a - b);
        return [which, { p50: percentile(sorted, 50), p99: percentile(sorted, 99) }];
      }),
    ) as Record<Variant, { p50: number; p99: number }>;
    const overhead = (which: Variant, p: 'p50' | 'p99') =>
      `${((figures[which][p] / figures.unaudited[p] - 1) * 100).toFixed(1)} %`;
    for (const which of ['unaudited', 'audited', 'alone'] as const)
      log(
        `  ${which.padEnd(9)} p50 ${figures[which].p50.toFixed(2)} ms  p99 ${figures[which].p99.toFixed(2)} ms${
          which === 'unaudited'
            ? ''
            : `  overhead p50 ${overhead(which, 'p50')}  p99 ${overhead(which, 'p99')}`
        }`,
      );
    log(
      `  (${rows.count} audit rows written; audited: in the change's transaction; alone: the former design)`,
    );
  } finally {
    await Promise.allSettled([apps.audited.close(), apps.unaudited.close()]);
    await db.destroy();
    redis.disconnect();
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(server);
    await server.destroy();
  }
}

await main();
