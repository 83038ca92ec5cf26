import { readdirSync } from 'node:fs';
import { feedFixturesDir, readFeedFixture } from '@newsroom/test-support/feed-server';
import { HOSTILE_HTML } from '@newsroom/test-support/hostile-html';
import sanitizeHtml from 'sanitize-html';
import { describe, expect, it } from 'vitest';
import { generateFeed } from '../../../bench/feed-generator';
import { loadUnpatchedSanitizeHtml, OPTION_SETS } from './support/sanitize-html-options';

// patches/sanitize-html@2.18.1.patch: sanitize-html's Frame constructor is defined once instead of per
// call, and escapeHtml returns strings without & < > " as they are. Neither may change any output, so
// every call here is compared with the unpatched module (the installed source with the patch reversed).
// sanitize-html is our XSS boundary: the whole hostile corpus (@newsroom/test-support/hostile-html) goes
// through both, vector by vector and all at once, with every option set; packages/feeds'
// sanitize-html-patch-in-feeds.test.ts compares the same for the HTML of feed items as feedparser hands it over.

const EDGE_CASES = [
  '',
  'plain text',
  'text with & < > " \' and &amp; &lt; &#x263A; &nosuch; &amp',
  '<p onclick="steal()">Hello<script>alert(1)</script></p><style>body{}</style>',
  '<iframe src="https://evil.example/">frame <b>text</b></iframe><object data="x.swf">o</object>',
  '<div><p>a <b>bold <i>nested</i></b> text</p><figure><img src="/a.jpg"><figcaption>c</figcaption></figure></div>',
  '<a href="javascript:alert(1)">a</a><a href="/rel?a=1&amp;b=2">b</a><a href="mailto:x@y.z"></a>',
  '<a href="https://x.example/"><img src="https://x.example/p.gif" width="1" height="1"></a>',
  '<p>unclosed <b>tags <i>everywhere<p>next</div></span>',
  '<textarea>&lt;b&gt;</textarea><xmp><b>x</b></xmp><noscript><p>n</p></noscript>',
  '<table><tr><td colspan="2" onclick="x">cell</td></tr></table><ul><li>one<li>two</ul>',
  '<p title="quote &quot; and &amp;">attributes</p><img alt="a &lt; b" src="https://x/y.jpg">',
];

describe('the sanitize-html patch', () => {
  const unpatched = loadUnpatchedSanitizeHtml();
  const fixtures = readdirSync(feedFixturesDir()).filter((name) => /\.(rss|atom)$/.test(name));

  it('is compared with a separate, unpatched copy', () => {
    expect(unpatched).not.toBe(sanitizeHtml);
    expect(typeof unpatched).toBe('function');
  });

  it(`has the whole hostile corpus to compare (${HOSTILE_HTML.length} vectors)`, () => {
    expect(HOSTILE_HTML.length).toBeGreaterThan(70);
  });

  describe.each(Object.entries(OPTION_SETS))('with options: %s', (_name, options) => {
    it('gives the same output for edge cases', () => {
      for (const html of EDGE_CASES) expect(sanitizeHtml(html, options), html).toBe(unpatched(html, options));
    });

    it('gives the same output for every vector of the hostile corpus, one by one and all at once', () => {
      for (const html of HOSTILE_HTML)
        expect(sanitizeHtml(html, options), html).toBe(unpatched(html, options));
      const all = HOSTILE_HTML.join('\n');
      expect(sanitizeHtml(all, options)).toBe(unpatched(all, options));
    });

    it('gives the same output for every fixture, whole', () => {
      for (const name of fixtures) {
        const document = readFeedFixture(name).toString('utf8');
        expect(sanitizeHtml(document, options), name).toBe(unpatched(document, options));
      }
    });

    it('gives the same output for a benchmark feed, whole', () => {
      const feed = generateFeed(5, 20);
      expect(sanitizeHtml(feed, options)).toBe(unpatched(feed, options));
    });
  });
});
