import { readdirSync } from 'node:fs';
import { HOSTILE_HTML } from '@newsroom/test-support/hostile-html';
import { describe, expect, it } from 'vitest';
import { generateFeed } from '../../../bench/feed-generator';
import {
  loadUnpatchedSanitizeHtml,
  OPTION_SETS,
  sanitizeHtml,
} from '../../html/test/support/sanitize-html-options';
import { openFeedDocument } from '../src/feed-document';
import { FIXTURES_DIR, readFixture } from './support/local-server';

// patches/sanitize-html@2.18.1.patch on the HTML the import sanitises: every item of a feed as feedparser hands it
// over (its URLs resolved against the placeholder base), compared with sanitize-html as published with every option
// set of packages/html's sanitize-html-patch.test.ts (which compares the markup on its own, the hostile corpus
// vector by vector).

/** A feed whose items carry the hostile corpus, escaped in descriptions and raw in CDATA content. */
function hostileFeed(): string {
  const escapeXml = (html: string) => html.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const items = HOSTILE_HTML.map(
    (html, i) =>
      `<item><guid>h${i}</guid><link>https://news.example.com/h/${i}</link><description>${escapeXml(html)}</description>` +
      `<content:encoded><![CDATA[${html.replaceAll(']]>', ']]]]><![CDATA[>')}]]></content:encoded></item>`,
  );
  return `<?xml version="1.0"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Hostile</title><link>https://news.example.com/</link>${items.join('')}</channel></rss>`;
}

const fixtures = readdirSync(FIXTURES_DIR).filter((name) => /\.(rss|atom)$/.test(name));

/** The HTML of every item of a feed document (description and summary, which holds content), as the import reads it. */
async function itemHtml(text: string): Promise<string[]> {
  const document = openFeedDocument(text);
  const html: string[] = [];
  try {
    for await (const item of document.items()) {
      for (const value of [item.description, item.summary]) if (value) html.push(value);
    }
  } catch {
    // A fixture that is not a feed gives the items read before its error (packages/html compares it whole).
  }
  return html;
}

describe('the sanitize-html patch on feed items', () => {
  const unpatched = loadUnpatchedSanitizeHtml();

  describe.each(Object.entries(OPTION_SETS))('with options: %s', (_name, options) => {
    it('gives the same output for the hostile corpus read from a feed, item by item', async () => {
      const html = await itemHtml(hostileFeed());
      expect(html.length).toBeGreaterThanOrEqual(HOSTILE_HTML.length);
      for (const value of html) expect(sanitizeHtml(value, options), value).toBe(unpatched(value, options));
    });

    it('gives the same output for every fixture, item by item', async () => {
      for (const name of fixtures) {
        const document = readFixture(name).toString('utf8');
        for (const html of await itemHtml(document))
          expect(sanitizeHtml(html, options), name).toBe(unpatched(html, options));
      }
    });

    it('gives the same output for a benchmark feed, item by item', async () => {
      const feed = generateFeed(5, 20);
      for (const html of await itemHtml(feed))
        expect(sanitizeHtml(html, options)).toBe(unpatched(html, options));
    });
  });
});
