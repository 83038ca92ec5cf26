import { afterEach, describe, expect, it, vi } from 'vitest';
import { BatchedLogDestination } from '../../src/log-destination';

// The production log destination batches lines (log-destination.ts); the bundle test
// (production-bundle.test.ts) shows the real one writing request lines and flushing them at exit.

function capture() {
  const writes: string[] = [];
  const destination = new BatchedLogDestination({
    write: (bytes: Buffer) => writes.push(bytes.toString('utf8')),
  });
  return { writes, destination };
}

describe('BatchedLogDestination', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands the lines of 50 ms to stdout as one write, in order', () => {
    vi.useFakeTimers();
    const { writes, destination } = capture();
    destination.write('{"a":1}\n');
    destination.write('{"b":"é"}\n');
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(writes).toEqual(['{"a":1}\n{"b":"é"}\n']);
    destination.write('{"c":3}\n');
    vi.advanceTimersByTime(50);
    expect(writes).toEqual(['{"a":1}\n{"b":"é"}\n', '{"c":3}\n']);
    vi.advanceTimersByTime(500);
    expect(writes).toHaveLength(2);
  });

  it('writes at once when 64 KiB are waiting, and on flush (as at exit)', () => {
    vi.useFakeTimers();
    const { writes, destination } = capture();
    const line = `${'x'.repeat(1023)}\n`;
    for (let i = 0; i < 64; i++) destination.write(line);
    expect(writes).toHaveLength(1);
    expect(writes[0]).toBe(line.repeat(64));
    destination.write('last\n');
    destination.flush();
    expect(writes[1]).toBe('last\n');
  });
});
