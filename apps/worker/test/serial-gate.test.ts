import { describe, expect, it } from 'vitest';
import { createSerialGate } from '../src/imports/serial-gate';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('createSerialGate', () => {
  it('runs tasks one at a time, in arrival order', async () => {
    const gate = createSerialGate();
    const events: string[] = [];
    let running = 0;
    const task = (name: string) => async () => {
      running++;
      expect(running).toBe(1);
      events.push(`start ${name}`);
      await tick();
      events.push(`end ${name}`);
      running--;
      return name;
    };
    const results = await Promise.all([gate.run(task('a')), gate.run(task('b')), gate.run(task('c'))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('goes on after a task fails, and passes the failure to its caller', async () => {
    const gate = createSerialGate();
    const failed = gate.run(async () => {
      await tick();
      throw new Error('broken feed');
    });
    const next = gate.run(async () => 'next');
    await expect(failed).rejects.toThrow('broken feed');
    await expect(next).resolves.toBe('next');
  });
});
