/** What the parts of `pnpm bench:history` share: the 3 KB body and the time format. */

export const paragraph = (i: number, tag = '') =>
  `<p>Paragraph ${i}${tag}: the council met on Tuesday to discuss the budget for the coming year, and members raised questions about road repairs and the library.</p>`;
export const body3k = (tag = '') =>
  Array.from({ length: 20 }, (_, i) => paragraph(i, i === 0 ? tag : '')).join('');
export const ms = (value: number) => `${value.toFixed(3)} ms`;
