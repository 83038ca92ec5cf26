import type { ListingPosition } from '@newsroom/domain';

// A list cursor (`?after=`, `meta.pagination.nextCursor`) names a row's place in the listing order, opaque to
// clients: base64url of "l1:<publishedAt in ms since the epoch>:<article id>". Not a change feed cursor (those
// start "1:"), so one cannot be taken for the other. published_at is stored at millisecond precision, so the
// milliseconds name the row exactly.

const cursorPattern = /^[A-Za-z0-9_-]{1,128}$/;
const positionPattern = /^l1:(\d{1,15}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

export function encodeListingCursor(position: ListingPosition): string {
  return Buffer.from(`l1:${position.publishedAt.getTime()}:${position.id}`, 'utf8').toString('base64url');
}

/** The position a list cursor names, or null when it is not one of ours. */
export function decodeListingCursor(cursor: string): ListingPosition | null {
  if (!cursorPattern.test(cursor)) return null;
  const match = positionPattern.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const [, ms, id] = match as unknown as [string, string, string];
  const publishedAt = new Date(Number(ms));
  return Number.isNaN(publishedAt.getTime()) ? null : { publishedAt, id };
}
