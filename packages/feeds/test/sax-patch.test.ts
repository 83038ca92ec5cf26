import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadUnpatched } from '@newsroom/test-support/unpatched-module';
import sax from 'sax';
import { describe, expect, it } from 'vitest';
import { generateFeed } from '../../../bench/feed-generator';
import { FIXTURES_DIR, readFixture } from './support/local-server';

// patches/sax@1.4.3.patch: with position counting off (feedparser's `position: false`, which
// feed-document.ts sets), sax's text and CDATA states jump to the next '<' / '&' / ']', its tag and
// attribute name states take runs of ASCII name characters, and its quoted attribute value state takes
// the value up to the quote or a '&', instead of reading one character at a time; and the whitespace
// after a stray '<' ("Profits < 5%") is counted, so that it is restored without position counting too.
// Every event is compared with sax as published, counting positions as it does by default.

type Sax = typeof sax;
const require = createRequire(import.meta.url);
const unpatchedSax = loadUnpatched(require.resolve('sax'), 'lib/sax.js', 'sax@1.4.3.patch') as Sax;

const EVENTS = [
  'opentag',
  'closetag',
  'text',
  'cdata',
  'comment',
  'processinginstruction',
  'doctype',
] as const;

/** Every event a sax reports for `text` written in pieces of `step` characters, with counting on or off. */
function saxEvents(text: string, step: number, trackPosition: boolean, library: Sax = sax): unknown[] {
  // feedparser's options: non-strict, lowercase names, namespaces.
  const parser = library.parser(false, { lowercase: true, xmlns: true, position: trackPosition });
  const events: unknown[] = [];
  for (const name of EVENTS) {
    parser[`on${name}`] = (value: unknown) => {
      events.push([name, value]);
    };
  }
  parser.onerror = (error: Error) => {
    // The message without the line and column that only counting adds.
    events.push(['error', error.message.split('\n')[0]]);
    parser.resume();
  };
  for (let start = 0; start < text.length; start += step) parser.write(text.slice(start, start + step));
  parser.close();
  return events;
}

// Edge cases: ']' and ']]' inside CDATA, a CDATA section ending the document, entities (known, numeric,
// unknown, unterminated), text that ends a piece, '<' and '&' as first characters; prefixed and
// punctuated names, non-ASCII names, entities and the other quote inside attribute values, empty and
// unquoted values, self-closing tags, a closing tag with whitespace before '>'; stray '<' followed by
// whitespace (restored from the count), by a non-name character, at the end of the text.
const EDGE_CASES = `<?xml version="1.0"?><rss><channel>
<item><title>A &amp; B &#8217; &unknown; &amp</title><description><![CDATA[x]y]]z]]]>]]></description></item>
<item><title>&lt;b&gt;bold&lt;/b&gt;</title><description><![CDATA[]]><![CDATA[<p>a]]]]><![CDATA[>b</p>]]></description></item>
<item><title>3 > 2 ]]> ] </title><description>plain text &amp; more</description></item>
text after items &amp; <!-- a comment --> more<![CDATA[tail]]>
<item><media:thumbnail url="https://x.example/a.jpg?a=1&amp;b=2" width='60'/><a:b-c.d_e9 x:y="v&amp;w&#38;" z='q"r' e="" u=bare></a:b-c.d_e9 ></item>
<item><tëst ätt="ü" k·v="1"></tëst><Mixed.Case ATTR="V"></Mixed.Case><x/><y / ><z a="1"b="2"></z></item>
<item><title>Profits < 5% higher, <	
  3 lower, a <= b, 1 <2, < </title><description>x <  </description></item>
</channel></rss> trailing < text`;

const fixtures = readdirSync(FIXTURES_DIR).filter((name) => /\.(rss|atom|xml)$/.test(name));

describe('the sax patch (text, CDATA, names and attribute values read in runs)', () => {
  it('is compared with a separate, unpatched copy', () => {
    expect(unpatchedSax.SAXParser).not.toBe(sax.SAXParser);
    expect(String(unpatchedSax.SAXParser.prototype.write)).not.toContain('asciiNameEnd');
  });

  it.each(['edge cases', ...fixtures])('reports the same events as sax as published: %s', (name) => {
    const text = name === 'edge cases' ? EDGE_CASES : readFixture(name).toString('latin1');
    for (const step of [text.length, 4096, 61]) {
      const published = saxEvents(text, step, true, unpatchedSax);
      expect(saxEvents(text, step, false), `counting off, ${step} characters per piece`).toEqual(published);
      if (step === text.length) expect(saxEvents(text, step, true), 'counting on').toEqual(published);
    }
  });

  it('reports the same events at every cut of the edge cases, down to one character per piece', () => {
    for (const step of [1, 2, 3, 5, 8, 13]) {
      expect(saxEvents(EDGE_CASES, step, false), `${step}`).toEqual(
        saxEvents(EDGE_CASES, step, true, unpatchedSax),
      );
    }
  });

  it('reports the same events for a benchmark feed', () => {
    const text = generateFeed(7, 20);
    expect(saxEvents(text, 1 << 16, false)).toEqual(saxEvents(text, 1 << 16, true, unpatchedSax));
  });

  it("restores the whitespace after a stray '<' without counting positions, which sax as published does not", () => {
    const text = '<r>Profits <   5% higher</r>';
    const texts = (events: unknown[]) => events.filter((event) => (event as string[])[0] === 'text');
    expect(texts(saxEvents(text, 1, false))).toEqual([['text', 'Profits <   5% higher']]);
    expect(texts(saxEvents(text, text.length, false, unpatchedSax))).toEqual([
      ['text', 'Profits <5% higher'],
    ]);
  });

  it('is applied to the sax that feedparser loads', () => {
    // pnpm applies patches/sax@1.4.3.patch at install; this fails if an update drops it.
    expect(String(sax.SAXParser.prototype.write)).toContain('textEnd');
    expect(String(sax.SAXParser.prototype.write)).toContain('asciiNameEnd');
    const require = createRequire(import.meta.url);
    const feedparsersSax = createRequire(require.resolve('feedparser')).resolve('sax');
    expect(feedparsersSax).toBe(require.resolve('sax'));
  });
});
