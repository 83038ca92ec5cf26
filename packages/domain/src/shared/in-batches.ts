/**
 * Groups items, as they arrive, into arrays of `size` (the last one may be shorter; no empty one),
 * so a long stream can be processed a bounded batch at a time.
 */
export async function* inBatches<T>(
  items: Iterable<T> | AsyncIterable<T>,
  size: number,
): AsyncGenerator<T[], void, undefined> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
