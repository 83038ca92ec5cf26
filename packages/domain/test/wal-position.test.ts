import { describe, expect, it } from 'vitest';
import { parseWalPosition, replayFenceOf } from '../src/replication/wal-position';

describe('WAL positions', () => {
  it('reads X/Y as bytes, so positions compare in order', () => {
    expect(parseWalPosition('0/3000028')).toBe(0x3000028n);
    expect(parseWalPosition('1/0')).toBe(1n << 32n);
    expect(parseWalPosition('1/0') > parseWalPosition('0/FFFFFFFF')).toBe(true);
    expect(() => parseWalPosition('nonsense')).toThrow('not a WAL position');
  });

  it('fences an insert position just past a page header at the page boundary, where replay stops', () => {
    // After a record ending at a boundary, pg_current_wal_insert_lsn() names the next record's start, past
    // the header; a replica that has replayed everything reports the boundary.
    expect(replayFenceOf(0x3000028n)).toBe(0x3000000n); // a segment's first page: long header, 40 bytes
    expect(replayFenceOf(0x3002018n)).toBe(0x3002000n); // any other page: short header, 24 bytes
    expect(replayFenceOf(0x3002100n)).toBe(0x3002100n); // inside a page: the position itself
  });
});
