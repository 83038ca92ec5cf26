import { describe, expect, it } from 'vitest';
import { htmlToText } from '../src/html-text';

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
