import { describe, expect, it } from 'vitest';
import { monthsBetween } from '../src/publishers/publisher-report';

describe('monthsBetween', () => {
  it('lists the months from one to the other, both included', () => {
    expect(monthsBetween('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
    expect(monthsBetween('2026-05', '2026-05')).toEqual(['2026-05']);
  });

  it('refuses a reversed range, more than 36 months, and a malformed month', () => {
    expect(() => monthsBetween('2026-02', '2026-01')).toThrow(
      expect.objectContaining({ code: 'INVALID_RANGE' }),
    );
    expect(monthsBetween('2024-01', '2026-12')).toHaveLength(36);
    expect(() => monthsBetween('2024-01', '2027-01')).toThrow(
      expect.objectContaining({ code: 'RANGE_TOO_LONG' }),
    );
    expect(() => monthsBetween('2024-13', '2025-01')).toThrow(
      expect.objectContaining({ code: 'INVALID_MONTH' }),
    );
  });
});
