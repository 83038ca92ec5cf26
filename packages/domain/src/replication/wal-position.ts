// A WAL position (pg_lsn, `X/Y` in hex) as a number of bytes, so positions compare with `>=`.

/** WAL page size (XLOG_BLCKSZ, Postgres's default). */
const walPageBytes = 8192n;
/** Page header sizes: every page (short) and a segment's first page (long), on 64-bit builds. */
const pageHeaderBytes = [24n, 40n];

/** `X/Y` -> bytes. */
export function parseWalPosition(text: string): bigint {
  const [high, low] = text.split('/');
  if (high === undefined || low === undefined) throw new Error(`not a WAL position: ${text}`);
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/**
 * The position a replica must have replayed to hold everything written before `insertPosition` (the primary's
 * `pg_current_wal_insert_lsn()`). That function names the next record's start: just after a page header when
 * the last record ended exactly at a page boundary, where a replica's replay position stops at the boundary
 * itself. No record ends inside a header, so the boundary is an equal fence (and a replay position can never
 * lie between the two).
 */
export function replayFenceOf(insertPosition: bigint): bigint {
  const inPage = insertPosition % walPageBytes;
  return pageHeaderBytes.includes(inPage) ? insertPosition - inPage : insertPosition;
}
