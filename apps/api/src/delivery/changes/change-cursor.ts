import type { ChangePosition, ListingPosition } from '@newsroom/domain';

// A cursor is a position in the outbox's order, opaque to clients: base64url of "1:<xid>:<article id>".
// The leading version lets the format change without breaking cursors already handed out.

const cursorPattern = /^[A-Za-z0-9_-]{1,128}$/;
const positionPattern = /^1:(\d{1,20}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;
const maxXid = 2n ** 64n - 1n;

export function encodeCursor(position: ChangePosition): string {
  return Buffer.from(`1:${position.xid}:${position.articleId}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or null when it is not one of ours. */
export function decodeCursor(cursor: string): ChangePosition | null {
  if (!cursorPattern.test(cursor)) return null;
  const match = positionPattern.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const [, xid, articleId] = match as unknown as [string, string, string];
  if (BigInt(xid) > maxXid) return null;
  return { xid: BigInt(xid).toString(), articleId };
}

/**
 * Where a read from nothing (`initial=true`) stands: the change position taken when it began (followed once
 * every article has been served) and the listing position of the last article served (null: none yet).
 * A cursor: base64url of "s1:<xid>:<article id>:<publishedAt ms>:<article id>".
 */
export interface SnapshotPosition {
  start: ChangePosition;
  after: ListingPosition | null;
}

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const snapshotPattern = new RegExp(`^s1:(\\d{1,20}):(${uuid}):(?:(\\d{1,15}):(${uuid}))?$`);

export function encodeSnapshotCursor({ start, after }: SnapshotPosition): string {
  const last = after ? `${after.publishedAt.getTime()}:${after.id}` : '';
  return Buffer.from(`s1:${start.xid}:${start.articleId}:${last}`, 'utf8').toString('base64url');
}

/** The snapshot position a cursor names, or null when it is not a snapshot cursor of ours. */
export function decodeSnapshotCursor(cursor: string): SnapshotPosition | null {
  if (!/^[A-Za-z0-9_-]{1,256}$/.test(cursor)) return null;
  const match = snapshotPattern.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const [, xid, articleId, ms, id] = match as unknown as [string, string, string, string?, string?];
  if (BigInt(xid) > maxXid) return null;
  const start = { xid: BigInt(xid).toString(), articleId };
  return { start, after: ms && id ? { publishedAt: new Date(Number(ms)), id } : null };
}
