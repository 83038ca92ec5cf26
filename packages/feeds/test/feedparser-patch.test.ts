import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { PLACEHOLDER_BASE } from '@newsroom/html';
import { loadUnpatched } from '@newsroom/test-support/unpatched-module';
import FeedParser from 'feedparser';
import { describe, expect, it } from 'vitest';
import { generateFeed } from '../../../bench/feed-generator';
import { FIXTURES_DIR, readFixture } from './support/local-server';

// patches/feedparser@2.6.0.patch: resolveHtmlUris copies the text between tags in slices; handleCloseTag
// keeps no raw node of an item it has emitted in the item's parent; an option `position` is passed to sax (our code
// turns it off, which patches/sax@1.4.3.patch makes give the same output). None may change what
// feedparser emits, so everything is compared with feedparser as published, on sax as published.

const require = createRequire(import.meta.url);

interface Utils {
  resolveHtmlUris(html: string, baseUrl: string): string;
}

const patchedUtils = require('feedparser/lib/utils.js') as Utils;

/** feedparser as published: its two patched files and sax compiled from their unpatched sources. */
function loadUnpatchedFeedparser() {
  const saxFile = createRequire(require.resolve('feedparser')).resolve('sax');
  const sax = loadUnpatched(saxFile, 'lib/sax.js', 'sax@1.4.3.patch');
  const utilsFile = require.resolve('feedparser/lib/utils.js');
  const utils = loadUnpatched(utilsFile, 'lib/utils.js', 'feedparser@2.6.0.patch') as Utils;
  const main = require.resolve('feedparser/lib/feedparser.js');
  const Parser = loadUnpatched(main, 'lib/feedparser.js', 'feedparser@2.6.0.patch', {
    './utils': utils,
    sax,
  }) as typeof FeedParser;
  return { Parser, utils };
}

/** Everything feedparser emits for a document: its items, its metadata, or its error. */
function readWith(parser: FeedParser, body: Buffer): Promise<unknown> {
  return new Promise((resolve) => {
    const items: unknown[] = [];
    parser.on('error', (error: Error) => resolve({ error: error.message }));
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

// Items with the markup escaped and in CDATA, a relative item link, xml:base, namespaced and nested
// elements, an illegally nested item, a stray '<' followed by whitespace, and a title after the items.
function markupFeed(): Buffer {
  const escaped = MARKUP.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return Buffer.from(`<?xml version="1.0"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:x="urn:x"><channel><link>https://n.example/</link>
<item><guid>1</guid><link>https://www.example.com/news/1</link><description>${escaped}</description></item>
<item><guid>2</guid><link>/news/2</link><content:encoded><![CDATA[${MARKUP}]]></content:encoded></item>
<item xml:base="https://base.example/dir/"><guid>3</guid><description><![CDATA[${MARKUP}]]></description><x:item>not an item</x:item></item>
<item><guid>4</guid><title>Profits <   5% higher</title><item><guid>nested</guid></item></item>
<x:item><guid>5</guid></x:item>
<title>Title after the items</title></channel></rss>`);
}

const bodyOf = (name: string) =>
  name === 'hand-made markup'
    ? markupFeed()
    : name === 'benchmark feed'
      ? Buffer.from(generateFeed(3, 50))
      : readFixture(name);

describe('the feedparser patch', () => {
  const unpatched = loadUnpatchedFeedparser();

  it('is compared with a separate, unpatched copy', () => {
    expect(unpatched.Parser).not.toBe(FeedParser);
    expect(unpatched.utils.resolveHtmlUris).not.toBe(patchedUtils.resolveHtmlUris);
  });

  it.each([...FIXTURES, 'hand-made markup', 'benchmark feed'])(
    'emits the same items and metadata as feedparser on sax as published: %s',
    async (name) => {
      const options = { feedurl: PLACEHOLDER_BASE, addmeta: false };
      const patched = await readWith(new FeedParser({ ...options, position: false }), bodyOf(name));
      const original = await readWith(new unpatched.Parser(options), bodyOf(name));
      expect(patched).toEqual(original);
    },
  );

  it('keeps no raw node of an emitted item in the channel', () => {
    const parser = new FeedParser({ addmeta: false, position: false });
    const item = (guid: string) => `<item><guid>${guid}</guid><title>Title ${guid}</title></item>`;
    (parser as unknown as { stream: { write(text: string): void } }).stream.write(
      `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title>${item('a')}${item('b')}`,
    );
    const stack = (parser as unknown as { stack: Record<string, unknown>[] }).stack;
    const channel = stack.find((node) => node['#name'] === 'channel');
    expect(channel?.title).toBeDefined();
    expect(channel?.item).toBeUndefined();
  });

  describe('resolveHtmlUris', () => {
    it.each([PLACEHOLDER_BASE, 'https://base.example/dir/page.html', 'http://other.example/'])(
      'returns what the unpatched one returns, against base %s',
      (base) => {
        for (const html of [
          ...MARKUP.split('\n'),
          MARKUP,
          '',
          'no markup at all',
          '<',
          '<a',
          '<a href="x"',
        ]) {
          expect(patchedUtils.resolveHtmlUris(html, base)).toBe(unpatched.utils.resolveHtmlUris(html, base));
        }
      },
    );

    it('returns what the unpatched one returns for generated markup', () => {
      const tokens = [
        ...[
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
        ],
        ...[
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
        ],
        ...[
          '&amp;',
          '#f',
          'é',
          '<a href="x.jpg">',
          '<img src=../y ',
          "<A HREF='//h/z'>",
          '<img srcset="a 1x, b 2x"',
        ],
      ];
      let seed = 42;
      const random = () => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed / 2 ** 31;
      };
      for (let run = 0; run < 3_000; run++) {
        const length = 1 + Math.floor(random() * 40);
        const html = Array.from({ length }, () => tokens[Math.floor(random() * tokens.length)]).join('');
        expect(patchedUtils.resolveHtmlUris(html, PLACEHOLDER_BASE)).toBe(
          unpatched.utils.resolveHtmlUris(html, PLACEHOLDER_BASE),
        );
      }
    });

    it('returns its input itself when no URL changes', () => {
      const html = '<p><img src="https://cdn.example/a.jpg"> text <a href="https://a.example/">a</a></p>';
      expect(patchedUtils.resolveHtmlUris(html, PLACEHOLDER_BASE)).toBe(html);
    });
  });
});
