import { splitFeedItems, streamFeedEntries, withItemsLeftOut } from '@newsroom/feeds';
import { generateFeed } from './feed-generator';
const feeds = Array.from({ length: 100 }, (_, p) => ({ old: Buffer.from(generateFeed(p, 50, 5, 0)), now: Buffer.from(generateFeed(p, 50, 5, 3)) }));
const known = feeds.map((f) => new Set(splitFeedItems(f.old)!.items.map((i) => i.guid)));
const cut = feeds.map((f, i) => withItemsLeftOut(splitFeedItems(f.now)!, (it) => known[i]!.has(it.guid)).body);
for (let k = 0; k < 60; k++) for (let i = 0; i < feeds.length; i++) for await (const e of streamFeedEntries(cut[i]!, { url: 'https://x.example/feed', contentType: 'application/rss+xml' })) void e;
