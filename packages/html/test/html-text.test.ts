import { describe, expect, it } from 'vitest';
import { htmlToText, titleToText } from '../src/html-text';

describe('htmlToText', () => {
  it('converts markup and references to plain text', () => {
    expect(htmlToText('<p>Fish &amp; chips</p><p>today<script>x()</script></p>')).toBe('Fish & chips today');
  });

  it('collapses whitespace in text without markup, as parsing it would', () => {
    // No '<' and no '&': returned without parsing. Appending '&amp;' forces the parser: same text.
    const plain = ' \tBudget\u00a0passes \r\n after  "late" vote\u2028(2/3) > expected ';
    expect(htmlToText(plain)).toBe('Budget passes after "late" vote (2/3) > expected');
    expect(htmlToText(`${plain}&amp;`)).toBe(`${htmlToText(plain)} &`);
  });
});

describe('htmlToText with a maximum length', () => {
  // Long bodies with what could go wrong at a piece boundary: entities, hidden text, block boundaries, long
  // whitespace runs (collapsing shrinks the text), characters outside the BMP (two UTF-16 units).
  const paragraph = (n: number) =>
    `<p>Paragraph ${n}: caf&eacute; &amp; r&#233;sum&eacute;${' '.repeat(n % 7)}\u{1F4F0} news<script>hidden(${n})</script></p>`;
  const bodies = [
    Array.from({ length: 200 }, (_, n) => paragraph(n)).join('\n'),
    `<div>${' \n\t'.repeat(3_000)}</div>${Array.from({ length: 100 }, (_, n) => paragraph(n)).join('')}`,
    `${'\u{1F600}'.repeat(2_000)}<p>end</p>`,
    '<p>short &amp; sweet</p>',
  ];

  it('gives the start of the whole text, cut without splitting a character', () => {
    for (const body of bodies) {
      const whole = htmlToText(body);
      for (const max of [1, 50, 299, 300, 1_000, 5_000]) {
        const start = htmlToText(body, max);
        expect(start.length).toBeLessThanOrEqual(max);
        expect(whole.startsWith(start)).toBe(true);
        // Only a trailing space or a whole character less than the maximum.
        expect(start.length).toBeGreaterThanOrEqual(Math.min(whole.length, max) - 2);
        expect(start).not.toMatch(/[\uD800-\uDBFF]$/);
      }
    }
  });
});

describe('titleToText', () => {
  it('keeps a plain-text title as it is, markup characters included', () => {
    expect(titleToText('A <b> tag & "quotes"')).toBe('A <b> tag & "quotes"');
    expect(titleToText('Police find <script> in  harbour')).toBe('Police find <script> in harbour');
    expect(titleToText('Harbour bridge <reopens> & "traffic" flows')).toBe(
      'Harbour bridge <reopens> & "traffic" flows',
    );
  });

  it('reads a title with a closing tag or a character reference as HTML (as real feeds send them)', () => {
    expect(titleToText('Arch St Apts &#x0024;1725 525ft<sup>2</sup>')).toBe('Arch St Apts $1725 525ft2');
    expect(titleToText('Fish &amp; Chips')).toBe('Fish & Chips');
    expect(titleToText('A &lt;b&gt; tag')).toBe('A <b> tag');
    expect(titleToText('<b>Bold</b> move')).toBe('Bold move');
  });
});
