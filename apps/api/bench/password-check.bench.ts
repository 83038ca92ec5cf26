import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createPasswordHasher } from '@newsroom/domain';

// What a login costs in bcrypt, and how long it holds the event loop.
// Run: pnpm exec tsx apps/api/bench/password-check.bench.ts [cost]   (default 12, the production cost)

const cost = Number(process.argv[2] ?? 12);
const hasher = createPasswordHasher(cost);
const hash = await hasher.hash('correct horse battery');
await hasher.verify('warm up the dummy hash', undefined);

async function timeOf(label: string, check: () => Promise<boolean>, runs = 10) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await check();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(runs / 2)] ?? 0;
  process.stdout.write(
    `${label.padEnd(34)} median ${median.toFixed(1)} ms  (min ${times[0]?.toFixed(1)}, max ${times.at(-1)?.toFixed(1)})\n`,
  );
}

process.stdout.write(`bcryptjs in worker threads, cost ${cost}, Node ${process.version}\n`);
await timeOf('right password', () => hasher.verify('correct horse battery', hash));
await timeOf('wrong password', () => hasher.verify('wrong horse battery', hash));
await timeOf('unknown e-mail (dummy hash)', () => hasher.verify('correct horse battery', undefined));

// Event-loop delay while 4 logins are checked at once: how long other requests can be held up.
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
const ticks: number[] = [];
let last = performance.now();
const timer = setInterval(() => {
  const now = performance.now();
  ticks.push(now - last);
  last = now;
}, 1);
await Promise.all(Array.from({ length: 4 }, () => hasher.verify('wrong horse battery', hash)));
clearInterval(timer);
delay.disable();
process.stdout.write(
  `4 concurrent checks: event-loop delay p50 ${(delay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms; longest gap between 1 ms timers ${Math.max(...ticks).toFixed(1)} ms\n`,
);
await hasher.close();
