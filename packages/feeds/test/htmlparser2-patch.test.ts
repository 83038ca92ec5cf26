import { readdirSync } from 'node:fs';
import { Parser } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { generateFeed } from '../../../bench/feed-generator';
import { FIXTURES_DIR, readFixture } from './support/local-server';

// patches/htmlparser2@12.0.0.patch: in the text state with entity decoding on (how sanitize-html and
// htmlToText parse), the tokenizer jumps to the next '<' or '&' within the piece it was given instead of
// stepping through every character. Written one character at a time there is nothing to jump over, so
// the tokenizer runs exactly as unpatched: comparing the two compares the patch with the original.

type Event = [string, ...unknown[]];

function htmlEvents(html: string, step: number): Event[] {
  const events: Event[] = [];
  const parser = new Parser(
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

const fixtures = readdirSync(FIXTURES_DIR).filter((name) => /\.(rss|atom)$/.test(name));

describe('the htmlparser2 patch (text read in runs)', () => {
  it.each(EDGE_CASES)('reports the same events as the unpatched character-by-character path: %s', (html) => {
    expect(htmlEvents(html, html.length)).toEqual(htmlEvents(html, 1));
  });

  it.each(fixtures)('reports the same events for a whole document: %s', (name) => {
    const html = readFixture(name).toString('latin1');
    const perCharacter = htmlEvents(html, 1);
    for (const step of [html.length, 4096, 7])
      expect(htmlEvents(html, step), `${step}`).toEqual(perCharacter);
  });

  it('reports the same events for a benchmark feed', () => {
    const html = generateFeed(3, 10);
    expect(htmlEvents(html, html.length)).toEqual(htmlEvents(html, 1));
  });
});
