import { describe, expect, it } from 'vitest';
import { PrimaryPosition } from '../../src/delivery/replica/primary-position';

/** A sampler whose reads the test answers one by one, in the order they were sent. */
function controlledSampler() {
  const pending: Array<(position: bigint) => void> = [];
  return {
    sent: () => pending.length,
    answer: (position: bigint) => (pending.shift() as (position: bigint) => void)(position),
    sample: () => new Promise<bigint>((resolve) => pending.push(resolve)),
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('PrimaryPosition', () => {
  it('answers each caller with a read sent after it called, sharing one read among callers that wait together', async () => {
    const sampler = controlledSampler();
    const positions = new PrimaryPosition(sampler.sample);
    const first = positions.next();
    // Sent before these calls: they must not take its answer, but share the next read.
    const second = positions.next();
    const third = positions.next();
    expect(sampler.sent()).toBe(1);
    sampler.answer(10n);
    expect(await first).toBe(10n);
    await settled();
    expect(sampler.sent()).toBe(1);
    sampler.answer(20n);
    expect([await second, await third]).toEqual([20n, 20n]);
    expect(positions.latest).toBe(20n);
  });

  it('is not stuck after a failed read', async () => {
    let fail = true;
    const positions = new PrimaryPosition(async () => {
      if (fail) throw new Error('primary down');
      return 7n;
    });
    await expect(positions.next()).rejects.toThrow('primary down');
    fail = false;
    expect(await positions.next()).toBe(7n);
  });
});
