import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateFeed } from '../../../bench/feed-generator';
import { splitFeedItems, withItemsLeftOut } from '../src/feed-item-split';
import { parseFeed } from '../src/parse-feed';
import { splitFeedItemsByRegex } from './support/feed-item-split-reference';
import { FIXTURES_DIR, readFixture } from './support/local-server';

const FEED_FIXTURES = readdirSync(FIXTURES_DIR).filter(
  (name) => /\.(rss|atom)$/.test(name) && name !== 'unrecognized.rss',
);

describe.each(FEED_FIXTURES)('fixture %s', (name) => {
  it('leaving out items by their plain guid parses to the other items, unchanged', async () => {
    const body = readFixture(name);
    const url = `https://feeds.example.com/${name}`;
    const split = splitFeedItems(body);
    if (!split) return; // parsed whole: nothing to compare
    const whole = await parseFeed(body, { url });
    // A plain guid is the guid the parser gives that item.
    const wholeGuids = new Set(whole.items.map((item) => item.guid));
    for (const item of split.items) if (item.guid !== undefined) expect(wholeGuids).toContain(item.guid);

    const leaveOut = new Set(
      split.items.flatMap((item, index) => (index % 2 === 0 && item.guid !== undefined ? [item.guid] : [])),
    );
    const { body: reduced, leftOut } = withItemsLeftOut(split, (item) => leaveOut.has(item.guid ?? ''));
    const rest = await parseFeed(reduced, { url });
    expect(await parseFeed(withItemsLeftOut(split, () => false).body, { url })).toEqual(whole);
    expect(rest.title).toBe(whole.title);
    expect(rest.items).toEqual(whole.items.filter((item) => !leaveOut.has(item.guid)));
    expect(leftOut).toBeGreaterThanOrEqual(leaveOut.size);
  });
});

const rss = (items: string) =>
  Buffer.from(
    `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><itemCount>2</itemCount>${items}</channel></rss>`,
  );

describe('splitFeedItems', () => {
  it('reads plain guids only', () => {
    const split = splitFeedItems(
      rss(
        '<item><guid isPermaLink="false"> a-1 </guid></item>\n<item><guid>a&amp;b</guid></item><item><guid><![CDATA[c]]></guid></item><item><title>no guid</title></item>',
      ),
    );
    expect(split?.items.map((item) => item.guid)).toEqual(['a-1', undefined, undefined, undefined]);
  });

  it('gives up on anything it cannot cut safely', () => {
    expect(splitFeedItems(rss(''))).toBeUndefined();
    expect(splitFeedItems(rss('<item><guid>a</guid>'))).toBeUndefined();
    expect(splitFeedItems(rss('<item><description><![CDATA[<item>]]></description></item>'))).toBeUndefined();
    expect(splitFeedItems(rss('<item><guid>a</guid></item>text<item><guid>b</guid></item>'))).toBeUndefined();
    expect(
      splitFeedItems(Buffer.from(rss('<item><guid>a</guid></item>').toString(), 'utf16le')),
    ).toBeUndefined();
  });

  it('cuts Atom entries, reading <id>', () => {
    const atom = Buffer.from(
      '<feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><entry><id>urn:x:1</id></entry><entry><id>urn:x:2</id><source><id>urn:s</id></source></entry></feed>',
    );
    expect(splitFeedItems(atom)?.items.map((item) => item.guid)).toEqual(['urn:x:1', undefined]);
  });
});

/** What a split says, comparable: the pieces as text and the guids. */
const described = (split: ReturnType<typeof splitFeedItems>) =>
  split && {
    head: split.head.toString('latin1'),
    items: split.items.map((item) => ({ bytes: item.bytes.toString('latin1'), guid: item.guid })),
    tail: split.tail.toString('latin1'),
  };

describe('splitFeedItems on the bytes', () => {
  const rssOf = (items: string) =>
    `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><items>2</items>${items}</channel></rss>`;
  const cases = [
    ...FEED_FIXTURES.map((name) => readFixture(name)),
    Buffer.from(generateFeed(3, 50)),
    Buffer.from(generateFeed(4, 20, 2, 3)),
    ...[
      '<item><guid>a</guid></item>',
      '<item ><guid >a</guid></item>\n\t <item\n><guid\tisPermaLink="x">b</guid></item>',
      '<item><guid isPermaLink="x>">a</guid></item>',
      '<item><guid a="</guid>">x</guid></item>',
      '<item><guid>a</guid><guid>b</guid></item>',
      '<item><guid>a</guid><source><guid>b</guid></source></item>',
      '<item><guidance>a</guidance><guid>b</guid></item>',
      '<item><guidance>a</guidance></item>',
      '<item><guid>a&amp;b</guid></item>',
      '<item><guid>a<b/></guid></item>',
      '<item><guid>a</guid ></item>',
      '<item><guid>  spaced  out </guid></item>',
      '<item><guid>\u00e9t\u00e9</guid></item>',
      '<item><guid></guid></item>',
      '<item><guid>a</guid>',
      '<item><description><![CDATA[<item>]]></description></item>',
      '<item><description><![CDATA[<entry>]]></description></item><item><guid>b</guid></item>',
      '<item><guid>a</guid></item><entry><id>b</id></entry>',
      '<item><guid>a</guid></item>x<item><guid>b</guid></item>',
      '<item><guid>a</guid></item>\u00a0<item><guid>b</guid></item>',
      '<itemCount>3</itemCount><item><guid>a</guid></item>',
      '<item\u00a0><guid>a</guid></item>',
      '<item/><item><guid>a</guid></item>',
      '<entry><id>urn:1</id></entry><entry><id >x</id><id>y</id></entry><entry><id>a</id><source><id>s</id></source></entry>',
      '<entry><id>urn:1</id></entry>\n<entry><id>urn:2</id></entry>',
      '<entry><id>u&amp;1</id></entry>',
    ].map((items) => Buffer.from(rssOf(items))),
    Buffer.from(`\u0000${rssOf('<item><guid>a</guid></item>')}`),
    Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(rssOf('<item><guid>a</guid></item>'))]),
    Buffer.from(rssOf('<item><guid>\u00e9</guid></item>'), 'latin1'),
  ];

  it.each(cases.map((body, index) => [index, body] as const))(
    'cuts case %i as the regular expressions do',
    (_, body) => {
      expect(described(splitFeedItems(body))).toEqual(described(splitFeedItemsByRegex(body)));
    },
  );

  it('cuts every piece of a benchmark feed as the regular expressions do', () => {
    const body = Buffer.from(generateFeed(5, 12, 1));
    for (let start = 0; start < body.length; start += 97) {
      for (const end of [start + 40, start + 400, body.length]) {
        const piece = body.subarray(start, end);
        expect(described(splitFeedItems(piece))).toEqual(described(splitFeedItemsByRegex(piece)));
      }
    }
  });
});
