import { describe, expect, it } from 'vitest';
import { inBatches } from '../src/shared/in-batches';

async function collect<T>(batches: AsyncIterable<T[]>): Promise<T[][]> {
  const all: T[][] = [];
  for await (const batch of batches) all.push(batch);
  return all;
}

async function* countTo(n: number) {
  for (let i = 1; i <= n; i++) yield i;
}

describe('inBatches', () => {
  it('groups items into full batches and one shorter last batch', async () => {
    expect(await collect(inBatches([1, 2, 3, 4, 5], 2))).toEqual([[1, 2], [3, 4], [5]]);
    expect(await collect(inBatches(countTo(6), 3))).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
  });

  it('yields nothing for no items', async () => {
    expect(await collect(inBatches([], 3))).toEqual([]);
  });

  it('hands a batch over before reading the items after it', async () => {
    let read = 0;
    async function* counted() {
      for (let i = 1; i <= 10; i++) {
        read = i;
        yield i;
      }
    }
    const batches = inBatches(counted(), 4);
    expect((await batches.next()).value).toEqual([1, 2, 3, 4]);
    expect(read).toBe(4);
  });
});
