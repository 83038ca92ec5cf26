/**
 * Webhook delivery benchmark (`pnpm bench:webhooks`): figures printed, nothing asserted. Loopback only: a local
 * receiver answering 200 at once, local Postgres and Redis, the webhook worker in this process (as main.ts
 * builds it). Bounded: every phase has a deadline.
 *
 * 1. Baseline: BENCH_EVENTS POSTs of a ~3 KB body through the same sender (guarded agent, no signing,
 *    no Postgres, no queue) at WEBHOOK_CONCURRENCY at once: the ceiling of the HTTP side on this machine.
 * 2. Full path: BENCH_EVENTS articles published (100 per statement) while one endpoint subscribes; from the first
 *    publish until every delivery is recorded as delivered: outbox -> relay -> delivery rows -> claimed in batches -> signed
 *    POST -> result recorded. Events per second, and the ratio to the baseline measured in the same run; and the
 *    delivery stage alone (from the last delivery row created to the last result recorded).
 *    With the CPU it took (this process, and the Postgres backends of the benchmark's database): at that CPU per
 *    event, what the machine's cores allow at best.
 * 3. Delivery alone: the same deliveries made due again at once (rows there, no relay), the worker woken; until
 *    every one is recorded delivered: claims, signed POSTs and results only.
 * 4. A backlog: the worker stopped, BENCH_EVENTS more articles published (the outbox holds them), then a worker
 *    started; from its start until every delivery is recorded: outbox -> relay -> rows -> claimed -> signed POST ->
 *    result recorded, without the cost of making the events (the publishing, which is the API's and the
 *    newsroom's, not the webhooks').
 * 5. Latency: BENCH_LATENCY_ROUNDS (50) articles published one at a time, each from its commit until its webhook
 *    reaches the receiver (p50, p99); then as many again while another connection keeps committing write
 *    transactions open ~5 ms each.
 * Phases 1, 2, 3 and 4 print their CPU per event; a last line adds up the least the full path can cost (publishing,
 * the bare POST, Postgres's share of delivery alone) against what 0.5x the baseline allows on this machine's cores.
 * Phases 1 and 2 are timed warm: BENCH_WARMUP_EVENTS (1,000) POSTs, and as many events through the whole path, go
 * first untimed (0: timed cold, as before 2026-11-28).
 * The relay is woken by `content_changed` as main.ts wires it (its 1 s interval a fallback); BENCH_RELAY_WAKE=off
 * has it poll every 200 ms instead, as it did before it was woken.
 */

import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { loadWorkerConfig } from '@newsroom/config';
import { createDb, createWebhookEndpoint } from '@newsroom/domain';
import { migrateToLatest } from '@newsroom/migrations';
import { createRedisConnection } from '@newsroom/queue';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { listenForContentChanges } from '../apps/worker/src/content-changes';
import { createWebhookSender } from '../apps/worker/src/webhooks/webhook-sender';
import { createWebhookWorker } from '../apps/worker/src/webhooks/webhook-worker';
import { log } from './log';
import { percentile } from './percentile';
import { backendPids, CpuMeter, cpuMsSince } from './process-meters';

const serverUrl = process.env.BENCH_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const events = Number(process.env.BENCH_EVENTS ?? 2_000);
const concurrency = Number(process.env.WEBHOOK_CONCURRENCY ?? 16);
const deadlineMs = 5 * 60_000;
const cores = availableParallelism();
const relayWoken = process.env.BENCH_RELAY_WAKE !== 'off';
const latencyRounds = Number(process.env.BENCH_LATENCY_ROUNDS ?? 50);
/** Sent (baseline) and published and delivered (full path) before each is timed, so both are timed warm. */
const warmupEvents = Number(process.env.BENCH_WARMUP_EVENTS ?? 1_000);

const admin = () =>
  new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: serverUrl, max: 1 }) }),
  });

/** CPU from now on: this process's and the Postgres backends' of `db`, per event once the phase ends. */
async function phaseCpu(db: Parameters<typeof backendPids>[0]) {
  const postgres = new CpuMeter(() => backendPids(db));
  await postgres.start();
  const own = process.cpuUsage();
  return {
    /** Milliseconds per event of this process and of Postgres, and a line saying so. */
    async perEvent(count: number) {
      const ownMs = cpuMsSince(own) / count;
      const postgresMs = ((await postgres.stop()) * 1000) / count;
      const line =
        `CPU per event: this process ${ownMs.toFixed(3)} ms (receiver included), Postgres ` +
        `${postgresMs.toFixed(3)} ms; ${(ownMs + postgresMs).toFixed(3)} ms in all`;
      return { ownMs, postgresMs, line };
    },
  };
}

async function main() {
  const name = `bench_webhooks_${randomBytes(4).toString('hex')}`;
  const server = admin();
  await sql`create database ${sql.id(name)}`.execute(server);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = createDb({ connectionString: url.toString(), max: 8, applicationName: 'newsroom-bench' });
  let received = 0;
  const receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(200).end();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const prefix = `bench-webhooks-${randomBytes(4).toString('hex')}`;
  const connection = createRedisConnection(redisUrl, 'worker');
  try {
    await migrateToLatest(db as unknown as Kysely<unknown>);
    const body = JSON.stringify({
      id: 'evt_x',
      type: 'article.published',
      data: { body: 'x'.repeat(3_000) },
    });

    // 1. Baseline: the sender alone.
    const sender = createWebhookSender({ timeoutMs: 5_000, allowPrivateAddresses: true });
    const sendAll = async (count: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < count) {
            next += 1;
            await sender.send(target, { 'webhook-id': 'evt_x' }, body);
          }
        }),
      );
    };
    await sendAll(warmupEvents);
    const baselineCpu = process.cpuUsage();
    const baselineStart = performance.now();
    await sendAll(events);
    const baselineRate = events / ((performance.now() - baselineStart) / 1000);
    const baselineCpuPerPost = cpuMsSince(baselineCpu) / events;
    await sender.close();
    log(
      `baseline: ${events} POSTs through the sender, ${concurrency} at once: ${baselineRate.toFixed(0)}/s; ` +
        `${baselineCpuPerPost.toFixed(3)} ms of CPU per POST (sender and receiver, this process)`,
    );
    // What 0.5x the baseline allows: that rate on this machine's cores, each busy all the time.
    const halfBudget = (cores * 1000) / (0.5 * baselineRate);

    // 2. The whole path.
    const config = loadWorkerConfig({
      NODE_ENV: 'production',
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl,
      QUEUE_PREFIX: prefix,
      FEED_ALLOW_PRIVATE_ADDRESSES: 'true',
      WEBHOOK_CONCURRENCY: String(concurrency),
      // Woken by content_changed as main.ts wires it, the relay keeps production's 1 s interval as its fallback;
      // BENCH_RELAY_WAKE=off measures the relay polling every 200 ms instead (as before it was woken).
      WEBHOOK_RELAY_INTERVAL_MS: relayWoken ? '1000' : '200',
      WEBHOOK_SWEEP_INTERVAL_MS: '5000',
    });
    await createWebhookEndpoint(db, {
      url: target,
      events: ['article.published'],
      site: null,
      enabled: true,
    });
    const publish = async (first: number, count = events) => {
      for (let offset = 0; offset < count; offset += 100) {
        const rows = Array.from({ length: Math.min(100, count - offset) }, (_, i) => ({
          title: `Story ${first + offset + i}`,
          slug: `story-${first + offset + i}`,
          body: `<p>${'x'.repeat(3_000)}</p>`,
          tags: ['bench'],
          status: 'published' as const,
          published_at: new Date(),
        }));
        await db.insertInto('articles').values(rows).execute();
      }
    };
    const delivered = async () =>
      Number(
        (
          await db
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.count<string>('delivered_at').as('delivered'))
            .executeTakeFirstOrThrow()
        ).delivered,
      );
    let worker = await createWebhookWorker({ config, db, connection });
    const changes = relayWoken
      ? await listenForContentChanges({
          connectionString: url.toString(),
          onChange: () => worker.wakeRelay(),
        })
      : undefined;
    log(
      `relay: ${relayWoken ? 'woken by content_changed (1 s interval as a fallback)' : 'every 200 ms, not woken'}`,
    );
    // Warm-up: events through the whole path until delivered, untimed (the code the timed run uses is compiled).
    await publish(1_000_000, warmupEvents);
    for (
      const stop = Date.now() + deadlineMs;
      Date.now() < stop && (await delivered()) < warmupEvents;
      await new Promise((r) => setTimeout(r, 20))
    );
    const warm = await delivered();
    received = 0;
    const fullCpu = await phaseCpu(db);
    const start = performance.now();
    await publish(0);
    const published = performance.now();
    let relayed: number | undefined;
    for (
      const stop = Date.now() + deadlineMs;
      Date.now() < stop;
      await new Promise((r) => setTimeout(r, 20))
    ) {
      const row = await db
        .selectFrom('webhook_deliveries')
        .select((eb) => [
          eb.fn.countAll<string>().as('rows'),
          eb.fn.count<string>('delivered_at').as('delivered'),
        ])
        .executeTakeFirstOrThrow();
      if (relayed === undefined && Number(row.rows) >= warm + events) relayed = performance.now();
      if (Number(row.delivered) >= warm + events) break;
    }
    const done = performance.now();
    const full = await fullCpu.perEvent(events);
    const seconds = (done - start) / 1000;
    const rate = events / seconds;
    // The delivery stage alone: from the moment every delivery row existed (the relay's part done) to the last
    // result recorded; claims, signed POSTs and results, without the publishing and the relay (which it now overlaps).
    const deliveryRate = events / ((done - (relayed ?? start)) / 1000);
    log(
      `full path: ${events} events published in ${((published - start) / 1000).toFixed(2)} s, all delivered and ` +
        `recorded after ${seconds.toFixed(2)} s: ${rate.toFixed(0)} events/s (${(rate / baselineRate).toFixed(2)}x ` +
        `the baseline); receiver got ${received}; every delivery row existed after ` +
        `${(((relayed ?? Number.NaN) - start) / 1000).toFixed(2)} s (the relay)`,
    );
    const cpuPerEvent = full.ownMs + full.postgresMs;
    log(
      `  CPU: this process ${(full.ownMs * events).toFixed(0)} ms, Postgres backends ${(full.postgresMs * events).toFixed(0)} ms: ` +
        `${cpuPerEvent.toFixed(2)} ms per event; at that, ${cores} cores allow at best ` +
        `${((cores * 1000) / cpuPerEvent).toFixed(0)} events/s (${((cores * 1000) / cpuPerEvent / baselineRate).toFixed(2)}x the baseline); ` +
        `0.5x needs at most ${halfBudget.toFixed(2)} ms per event`,
    );
    log(
      `delivery stage (last delivery row created -> last result recorded): ${deliveryRate.toFixed(0)} events/s ` +
        `(${(deliveryRate / baselineRate).toFixed(2)}x the baseline)`,
    );
    // 3. Delivery alone: every delivery made pending and due again at once (rows already there, no relay), then
    // the worker woken; until every one is recorded delivered again.
    await db.deleteFrom('webhook_delivery_attempts').execute();
    // An attempt queued as a BullMQ job (earlier versions) is not queued again while its completed job is kept.
    await worker.queue.clean(0, 0, 'completed');
    await db
      .updateTable('webhook_deliveries')
      .set({
        status: 'pending',
        attempts: 0,
        next_attempt_at: new Date(),
        locked_until: null,
        delivered_at: null,
      })
      .execute();
    // Timed from the wake-up: making the rows due again is the benchmark's setup, not delivery.
    const due = warm + events;
    const againCpu = await phaseCpu(db);
    const again = performance.now();
    await worker.sweepNow();
    for (
      const stop = Date.now() + deadlineMs;
      Date.now() < stop && (await delivered()) < due;
      await new Promise((r) => setTimeout(r, 20))
    );
    const againRate = due / ((performance.now() - again) / 1000);
    log(
      `delivery alone (${due} due rows, no relay -> all recorded delivered): ${againRate.toFixed(0)} events/s ` +
        `(${(againRate / baselineRate).toFixed(2)}x the baseline)`,
    );
    const deliveryCpu = await againCpu.perEvent(due);
    log(`  ${deliveryCpu.line}`);
    // 4. A backlog: the outbox holds BENCH_EVENTS changes when a worker starts.
    await worker.close();
    const publishCpu = await phaseCpu(db);
    await publish(events);
    const publishing = await publishCpu.perEvent(events);
    const publishMs = publishing.ownMs + publishing.postgresMs;
    log(
      `  publishing alone (no worker): ${publishMs.toFixed(2)} ms CPU per event, so the webhooks' ` +
        `part of the full path was ${(cpuPerEvent - publishMs).toFixed(2)} ms per event`,
    );
    const before = await delivered();
    const backlogCpu = await phaseCpu(db);
    const backlogStart = performance.now();
    worker = await createWebhookWorker({ config, db, connection });
    for (
      const stop = Date.now() + deadlineMs;
      Date.now() < stop && (await delivered()) < before + events;
      await new Promise((r) => setTimeout(r, 20))
    );
    const backlogRate = events / ((performance.now() - backlogStart) / 1000);
    log(
      `backlog (${events} changes in the outbox, a worker started -> all recorded delivered): ${backlogRate.toFixed(0)} ` +
        `events/s (${(backlogRate / baselineRate).toFixed(2)}x the baseline)`,
    );
    const backlogCpuPerEvent = await backlogCpu.perEvent(events);
    log(`  ${backlogCpuPerEvent.line}`);
    // The least the full path can cost per event, each part measured above: making the event (publishing), the bare
    // POST (sender and receiver), and Postgres's share of delivery alone (claim, attempt row, result), with the relay
    // (Node and Postgres) and all of the worker's own code taken as free, and both cores busy all the time. Above the
    // budget, 0.5x is out of reach on this machine while each attempt is recorded in Postgres.
    const floor = publishMs + baselineCpuPerPost + deliveryCpu.postgresMs;
    log(
      `floor of the full path: publishing ${publishMs.toFixed(3)} + the bare POST ${baselineCpuPerPost.toFixed(3)} + ` +
        `Postgres in delivery alone ${deliveryCpu.postgresMs.toFixed(3)} = ${floor.toFixed(3)} ms per event, the relay ` +
        `(Postgres ${(backlogCpuPerEvent.postgresMs - deliveryCpu.postgresMs).toFixed(3)} ms more in the backlog) and ` +
        `the worker's own code taken as free; 0.5x on ${cores} cores allows ${halfBudget.toFixed(3)} ms: ` +
        `${floor > halfBudget ? 'out of reach on this machine' : 'within reach'}`,
    );
    // 5. Latency: one article published at a time (the worker idle); from its insert (which returns once committed)
    // to its webhook's arrival. Then the same while another connection keeps committing small write transactions,
    // each open ~5 ms (a newsroom's other saves): a publish committed while one is open is not final until it ends.
    const latencyOf = async (label: string, round: string) => {
      const latencies: number[] = [];
      for (let i = 0; i < latencyRounds; i++) {
        const before = received;
        const published = performance.now();
        await db
          .insertInto('articles')
          .values({
            title: `Alone ${round} ${i}`,
            slug: `alone-${round}-${i}`,
            body: '<p>One story.</p>',
            tags: [],
            status: 'published',
            published_at: new Date(),
          })
          .execute();
        while (received === before && performance.now() - published < 10_000) {
          await new Promise((r) => setTimeout(r, 1));
        }
        latencies.push(performance.now() - published);
        // Apart, so each publish finds the relay idle, as a newsroom's publishes do.
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
      latencies.sort((a, b) => a - b);
      const at = (p: number) => percentile(latencies, p).toFixed(0);
      log(
        `latency (${latencyRounds} publishes one at a time, ${label}, insert and commit -> webhook received): ` +
          `p50 ${at(50)} ms, p99 ${at(99)} ms, max ${at(100)} ms`,
      );
    };
    await latencyOf('nothing else writing', 'a');
    const writer = new pg.Client({ connectionString: url.toString() });
    await writer.connect();
    let writing = true;
    const writes = (async () => {
      while (writing) {
        await writer.query('begin');
        await writer.query('select pg_current_xact_id()');
        await new Promise((r) => setTimeout(r, 5));
        await writer.query('commit');
      }
    })();
    try {
      await latencyOf('another connection writing', 'b');
    } finally {
      writing = false;
      await writes;
      await writer.end();
    }
    await worker.close();
    await changes?.close();
    await worker.queue.obliterate({ force: true });
  } finally {
    connection.disconnect();
    receiver.close();
    await db.destroy();
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(server);
    await server.destroy();
  }
}

await main();
