import { splitFeedItems, streamFeedEntries, withItemsLeftOut } from '@newsroom/feeds';
import { createHash } from 'node:crypto';
import { generateFeed } from './feed-generator';

const feeds = Array.from({ length: 100 }, (_, p) => ({
  old: Buffer.from(generateFeed(p, 50, 5, 0)),
  now: Buffer.from(generateFeed(p, 50, 5, 3)),
}));
const known = feeds.map((f) => new Set(splitFeedItems(f.old)!.items.map((i) => i.guid)));
function cpu<T>(label: string, rounds: number, fn: (i: number) => T) {
  for (let i = 0; i < feeds.length; i++) fn(i);
  const best: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const s = process.cpuUsage();
    for (let i = 0; i < feeds.length; i++) fn(i);
    const u = process.cpuUsage(s);
    best.push((u.user + u.system) / feeds.length);
  }
  console.log(`${label}: ${Math.min(...best).toFixed(0)} µs per feed (best of ${rounds})`);
}
cpu('sha256', 5, (i) => createHash('sha256').update(feeds[i]!.now).digest('hex'));
cpu('split', 5, (i) => splitFeedItems(feeds[i]!.now));
const cut = feeds.map((f, i) => withItemsLeftOut(splitFeedItems(f.now)!, (it) => known[i]!.has(it.guid)).body);
cpu('withItemsLeftOut', 5, (i) => withItemsLeftOut(splitFeedItems(feeds[i]!.now)!, (it) => known[i]!.has(it.guid)));
console.log('cut body bytes', cut[0]!.length);
async function parseAll(normalise: boolean) {
  const s = process.cpuUsage();
  for (let i = 0; i < feeds.length; i++) {
    for await (const e of streamFeedEntries(cut[i]!, { url: 'https://x.example/feed', contentType: 'application/rss+xml' })) if (normalise) e.normalise();
  }
  const u = process.cpuUsage(s);
  return (u.user + u.system) / feeds.length;
}
for (const n of [false, true]) {
  const r = [];
  for (let k = 0; k < 6; k++) r.push(await parseAll(n));
  console.log(`parse cut body (3 items) ${n ? '+ normalise' : 'entries only'}: ${Math.min(...r.slice(1)).toFixed(0)} µs per feed`);
}
// empty feed: header only
const empty = feeds.map((f, i) => withItemsLeftOut(splitFeedItems(f.now)!, () => true).body);
const r = [];
for (let k = 0; k < 6; k++) { const s = process.cpuUsage(); for (let i = 0; i < feeds.length; i++) for await (const e of streamFeedEntries(empty[i]!, { url: 'https://x.example/feed', contentType: 'application/rss+xml' })) void e; const u = process.cpuUsage(s); r.push((u.user+u.system)/feeds.length); }
console.log(`parse header only: ${Math.min(...r.slice(1)).toFixed(0)} µs per feed`);
