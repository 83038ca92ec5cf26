import { describe, expect, it } from 'vitest';
import type { ListingOutline } from '../src';
import { listingAnchorStep, seekPosition } from '../src/published/published-listing';

const position = (n: number) => ({ publishedAt: new Date(1_000_000 - n), id: `id-${n}` });
const outlineOf = (total: number): ListingOutline => ({
  total,
  anchors: Array.from({ length: Math.ceil(total / listingAnchorStep) }, (_, i) =>
    position(i * listingAnchorStep),
  ),
});

describe('seekPosition', () => {
  it('reads the first anchor-step rows with a plain skip', () => {
    expect(seekPosition(outlineOf(2_000), 0)).toEqual({ from: position(0), skip: 0 });
    expect(seekPosition(outlineOf(2_000), listingAnchorStep - 1)).toEqual({
      from: position(0),
      skip: listingAnchorStep - 1,
    });
  });

  it('starts a deep page at the nearest anchor before it', () => {
    const offset = 3 * listingAnchorStep + 40;
    expect(seekPosition(outlineOf(10_000), offset)).toEqual({
      from: position(3 * listingAnchorStep),
      skip: 40,
    });
    expect(seekPosition(outlineOf(10_000), 2 * listingAnchorStep)).toEqual({
      from: position(2 * listingAnchorStep),
      skip: 0,
    });
  });

  it('never skips more than one anchor step', () => {
    const outline = outlineOf(12_345);
    for (let offset = 0; offset < 12_345; offset += 97) {
      expect(seekPosition(outline, offset).skip).toBeLessThan(listingAnchorStep);
    }
  });

  it('falls back to a plain skip without anchors', () => {
    expect(seekPosition({ total: 0, anchors: [] }, 40)).toEqual({ from: null, skip: 40 });
  });
});
