import { readdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { feedFixturesDir, readFeedFixture } from '@newsroom/test-support/feed-server';
import { HOSTILE_HTML } from '@newsroom/test-support/hostile-html';
import { importUnpatched } from '@newsroom/test-support/unpatched-module';
import { Parser } from 'htmlparser2';
import { afterAll, describe, expect, it } from 'vitest';
import { generateFeed } from '../../../bench/feed-generator';

// patches/htmlparser2@12.0.0.patch: in the text state with entity decoding on (how sanitize-html and
// htmlToText parse), the tokenizer jumps to the next '<' or '&' within the piece it was given instead of
// stepping through every character. Every event is compared with htmlparser2 as published (a copy of
// the package with the patch reversed), for the input in one piece and in many.

// The installed package's root: the directory above dist/index.js.
const packageDir = dirname(dirname(realpathSync(createRequire(import.meta.url).resolve('htmlparser2'))));
const unpatched = await importUnpatched(packageDir, 'dist/Parser.js', 'htmlparser2@12.0.0.patch');
const UnpatchedParser = (unpatched.module as { Parser: typeof Parser }).Parser;
afterAll(unpatched.remove);

type Event = [string, ...unknown[]];

function htmlEvents(html: string, step: number, Library: typeof Parser = Parser): Event[] {
  const events: Event[] = [];
  const parser = new Library(
    {
      onopentag: (name, attribs) => events.push(['open', name, attribs]),
      onclosetag: (name, implied) => events.push(['close', name, implied]),
      ontext: (text) => {
        // Text may be reported in more calls when the input comes in more pieces: compare it joined.
        const last = events.at(-1);
        if (last?.[0] === 'text') last[1] += text;
        else events.push(['text', text]);
      },
      oncomment: (text) => events.push(['comment', text]),
      onprocessinginstruction: (name, data) => events.push(['pi', name, data]),
      oncdatastart: () => events.push(['cdata']),
    },
    { decodeEntities: true },
  );
  for (let start = 0; start < html.length; start += step) parser.write(html.slice(start, start + step));
  parser.end();
  return events;
}

const EDGE_CASES = [
  'plain text with no markup at all',
  '&amp; first, then text &lt;b&gt; &#x263A; &#9731; &nosuch; &amp',
  '<p>a &amp; b</p>text<br>more&copy<script>var a = "<p>&amp;</p>";</script>after<title>&amp; x</title>',
  '<textarea>&lt;</textarea><p>x<!-- c --> y <![CDATA[z]]> <?pi a?> &</p>trailing text',
  '<',
  'ends with &',
  '<a href="?a=1&amp;b=2&c">link &gt;</a> < not a tag',
];

const fixtures = readdirSync(feedFixturesDir()).filter((name) => /\.(rss|atom)$/.test(name));

describe('the htmlparser2 patch (text read in runs)', () => {
  it('is compared with a separate, unpatched copy', () => {
    expect(UnpatchedParser).not.toBe(Parser);
    const tokenizerOf = (parser: Parser) => (parser as unknown as { tokenizer: object }).tokenizer;
    expect(tokenizerOf(new Parser({}))).toHaveProperty('fastForwardToTextEnd');
    expect(tokenizerOf(new UnpatchedParser({}))).not.toHaveProperty('fastForwardToTextEnd');
  });

  it.each(EDGE_CASES)('reports the same events as htmlparser2 as published: %s', (html) => {
    const published = htmlEvents(html, html.length, UnpatchedParser);
    for (const step of [html.length, 1]) expect(htmlEvents(html, step), `${step}`).toEqual(published);
  });

  it('reports the same events for every vector of the hostile corpus', () => {
    for (const html of HOSTILE_HTML) {
      expect(htmlEvents(html, html.length), html).toEqual(htmlEvents(html, html.length, UnpatchedParser));
    }
  });

  it.each(fixtures)('reports the same events for a whole document: %s', (name) => {
    const html = readFeedFixture(name).toString('latin1');
    for (const step of [html.length, 4096, 7])
      expect(htmlEvents(html, step), `${step}`).toEqual(htmlEvents(html, step, UnpatchedParser));
  });

  it('reports the same events for a benchmark feed', () => {
    const html = generateFeed(3, 10);
    expect(htmlEvents(html, html.length)).toEqual(htmlEvents(html, html.length, UnpatchedParser));
  });
});
