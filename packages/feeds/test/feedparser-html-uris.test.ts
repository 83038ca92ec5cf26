import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type FeedParserType from 'feedparser';
import { describe, expect, it } from 'vitest';
import { generateFeed } from '../../../bench/feed-generator';
import { PLACEHOLDER_BASE } from '../src/feed-url';
import * as htmlUris from '../src/feedparser-html-uris';
import { FeedParser } from '../src/load-feedparser';
import { parseFeed } from '../src/parse-feed';
import { FIXTURES_DIR, readFixture } from './support/local-server';
import { compileModule, unpatchedSource } from './support/unpatched-module';

const { fastResolveHtmlUris, feedparserResolveHtmlUris } = htmlUris;

const require = createRequire(import.meta.url);

/**
 * A second copy of feedparser as published: its main module compiled from the source without our pnpm
 * patch (patches/feedparser@2.6.0.patch), while the utils export is switched back to feedparser's own
 * resolveHtmlUris (feedparser copies the exports when it is loaded).
 */
function loadOriginalFeedParser(): typeof FeedParserType {
  const utils = require('feedparser/lib/utils.js') as { resolveHtmlUris: unknown };
  const main = require.resolve('feedparser/lib/feedparser.js');
  const fast = utils.resolveHtmlUris;
  utils.resolveHtmlUris = feedparserResolveHtmlUris;
  try {
    const source = unpatchedSource(main, 'lib/feedparser.js', 'feedparser@2.6.0.patch');
    return compileModule(main, source) as typeof FeedParserType;
  } finally {
    utils.resolveHtmlUris = fast;
  }
}

/** Everything feedparser emits for a document: its items and its metadata. */
function readWith(Parser: typeof FeedParserType, body: Buffer): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const parser = new Parser({ feedurl: PLACEHOLDER_BASE, addmeta: false });
    const items: unknown[] = [];
    parser.on('error', reject);
    parser.on('readable', () => {
      for (let item = parser.read(); item !== null; item = parser.read()) items.push(item);
    });
    parser.on('end', () => resolve({ items, meta: parser.meta }));
    parser.end(body);
  });
}

const FIXTURES = readdirSync(FIXTURES_DIR).filter((name) => /\.(rss|atom)$/.test(name));

// Relative, protocol-relative, uppercase, single-quoted, unquoted and srcset URLs; a '>' inside a
// quoted value; tags inside a comment and a processing instruction; an unclosed tag; xml:base.
const MARKUP = [
  '<p>Text <a href="/a?b=1&amp;c=2">one</a> <A HREF=\'../up\'>two</A> <img src=x.jpg alt="1 > 0"></p>',
  '<img srcset="a.jpg 1x, //cdn.example/b.jpg 2x" src="https://cdn.example/c.jpg"><br/>',
  '<!-- <a href="in-comment"> --><?pi <a href="in-pi"> ?><!DOCTYPE x><a href=unquoted>u</a>',
  '<blockquote cite="q.html">quote</blockquote><q cite=\'#frag\'>q</q><video poster="p.png" src="v.mp4"></video>',
  '<a href="mailto:Someone@Example.com?subject=a b">mail</a><a href="javascript:alert(1)">js</a>',
  '< a href="not-a-tag">x</a><a href="unclosed',
].join('\n');

function markupFeed(): Buffer {
  const escaped = MARKUP.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return Buffer.from(`<?xml version="1.0"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title><link>https://n.example/</link>
<item><guid>1</guid><link>https://www.example.com/news/1</link><description>${escaped}</description></item>
<item><guid>2</guid><link>/news/2</link><content:encoded><![CDATA[${MARKUP}]]></content:encoded></item>
<item xml:base="https://base.example/dir/"><guid>3</guid><description><![CDATA[${MARKUP}]]></description></item>
</channel></rss>`);
}

describe('fastResolveHtmlUris', () => {
  it('is what feedparser calls once the package has loaded it', async () => {
    await parseFeed(markupFeed(), { url: 'https://feeds.example.com/feed.xml' });
    expect(htmlUris.fastResolverUsed).toBe(true);
  });

  it.each([PLACEHOLDER_BASE, 'https://base.example/dir/page.html', 'http://other.example/'])(
    'returns what feedparser returns, against base %s',
    (base) => {
      for (const html of MARKUP.split('\n').concat(
        MARKUP,
        '',
        'no markup at all',
        '<',
        '<a',
        '<a href="x"',
      )) {
        expect(fastResolveHtmlUris(html, base)).toBe(feedparserResolveHtmlUris(html, base));
      }
    },
  );

  it('returns what feedparser returns for generated markup', () => {
    const tokens = [
      '<',
      '>',
      '</',
      '<!--',
      '-->',
      '<?',
      '?>',
      '<!',
      'a',
      'img',
      'IMG',
      'p',
      ' ',
      '\n',
      '=',
      '"',
      "'",
      '/',
      'href',
      'src',
      'srcset',
      'cite',
      'x.jpg',
      '../y',
      '//h/z',
      'https://abs.example/q',
      ',',
      ' 2x',
      '&amp;',
      '#f',
      'é',
      '<a href="x.jpg">',
      '<img src=../y ',
      "<A HREF='//h/z'>",
      '<img srcset="a 1x, b 2x"',
    ];
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 3_000; run++) {
      const length = 1 + Math.floor(random() * 40);
      const html = Array.from({ length }, () => tokens[Math.floor(random() * tokens.length)]).join('');
      expect(fastResolveHtmlUris(html, PLACEHOLDER_BASE)).toBe(
        feedparserResolveHtmlUris(html, PLACEHOLDER_BASE),
      );
    }
  });

  it('returns its input itself when no URL changes', () => {
    const html = '<p><img src="https://cdn.example/a.jpg"> text <a href="https://a.example/">a</a></p>';
    expect(fastResolveHtmlUris(html, PLACEHOLDER_BASE)).toBe(html);
  });
});

describe('feedparser with fastResolveHtmlUris and its pnpm patch', () => {
  const OriginalFeedParser = loadOriginalFeedParser();

  it('is a separate copy from the one the package uses (so the comparison below means something)', () => {
    expect(OriginalFeedParser).not.toBe(FeedParser);
  });

  it.each([...FIXTURES, 'hand-made markup', 'benchmark feed'])(
    'emits the same items and metadata: %s',
    async (name) => {
      const body =
        name === 'hand-made markup'
          ? markupFeed()
          : name === 'benchmark feed'
            ? Buffer.from(generateFeed(3, 50))
            : readFixture(name);
      const fast = await readWith(FeedParser, body).catch((error: unknown) => error);
      const original = await readWith(OriginalFeedParser, body).catch((error: unknown) => error);
      expect(fast).toEqual(original);
    },
  );
});
