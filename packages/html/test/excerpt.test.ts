import { describe, expect, it } from 'vitest';
import { excerptFromHtml, excerptFromText, maxExcerptLength } from '../src/excerpt';

describe('excerptFromHtml', () => {
  it('takes the text of the first paragraph that has any', () => {
    const html = '<h2>Heading</h2><p> </p><p>First <b>real</b> paragraph &amp; more.</p><p>Second.</p>';
    expect(excerptFromHtml(html)).toBe('First real paragraph & more.');
  });

  it('falls back to the whole text when there are no paragraphs, and leaves scripts out', () => {
    expect(excerptFromHtml('<div>One</div><div>Two<script>alert(1)</script></div>')).toBe('One Two');
    expect(excerptFromHtml('Plain   text\nbody')).toBe('Plain text body');
    expect(excerptFromHtml('')).toBe('');
  });

  it('cuts at a word boundary within 300 characters, with an ellipsis', () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${i}`).join(' ');
    const excerpt = excerptFromHtml(`<p>${words}</p>`);
    expect(Array.from(excerpt).length).toBeLessThanOrEqual(maxExcerptLength);
    expect(excerpt.endsWith('…')).toBe(true);
    expect(words.startsWith(excerpt.slice(0, -1))).toBe(true);
    expect(words[excerpt.length - 1]).toBe(' ');
  });
});

describe('excerptFromText', () => {
  it('keeps short text whole and counts characters, not UTF-16 units', () => {
    expect(excerptFromText('  short  text ')).toBe('short text');
    const emoji = '😀'.repeat(300);
    expect(excerptFromText(emoji)).toBe(emoji);
    expect(Array.from(excerptFromText('😀'.repeat(301)))).toHaveLength(300);
  });
});

describe('excerptFromText on long texts', () => {
  // The whole text collapsed, then cut: what excerptFromText computes from only the start of a long text.
  const reference = (text: string) => {
    const collapsed = text.replace(/\s+/g, ' ').trim();
    const chars = Array.from(collapsed);
    if (chars.length <= maxExcerptLength) return collapsed;
    const cut = chars.slice(0, maxExcerptLength - 1).join('');
    const lastSpace = cut.lastIndexOf(' ');
    return `${(lastSpace > cut.length / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
  };

  it('gives what collapsing the whole text would, for texts of every length and spacing', () => {
    const pieces = ['word', ' ', '   \n\t', '\u00a0', '😀', 'é', 'longerwordwithoutspaces'.repeat(5)];
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (let round = 0; round < 400; round++) {
      const length = Math.floor(next() * 4000);
      let text = '';
      while (text.length < length) text += pieces[Math.floor(next() * pieces.length)];
      if (round % 3 === 0) text = `${' '.repeat(Math.floor(next() * 3000))}${text}`;
      expect(excerptFromText(text)).toBe(reference(text));
    }
  });
});
