import { splitFeedItems } from '@newsroom/feeds';
import { generateFeed } from './feed-generator';
const feeds = Array.from({ length: 100 }, (_, p) => Buffer.from(generateFeed(p, 50, 5, 3)));
for (let k = 0; k < 300; k++) for (const f of feeds) splitFeedItems(f);
