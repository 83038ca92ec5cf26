// The one writer of the client's JSON envelope, `{"data":[<items>],"meta":<meta>}`: listing pages
// (page-assembly.ts), `/all` (streamed, client-reads.ts) and the change feed (changes/change-page.ts). Items
// and meta arrive already serialised, so an envelope is bytes joined, never an object stringified again.

/** What opens an envelope, before its first item. */
export const envelopeHead = '{"data":[';

const head = Buffer.from(envelopeHead);
const comma = Buffer.from(',');

/** What closes an envelope after its last item: `],"meta":<meta>}`. */
export function envelopeTail(metaJson: string): string {
  return `],"meta":${metaJson}}`;
}

/** The whole envelope of serialised items and a serialised tail (envelopeTail). */
export function jsonEnvelope(items: readonly Buffer[], tail: Buffer): Buffer {
  const parts: Buffer[] = [head];
  items.forEach((item, index) => {
    if (index > 0) parts.push(comma);
    parts.push(item);
  });
  parts.push(tail);
  return Buffer.concat(parts);
}
