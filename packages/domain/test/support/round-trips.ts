import pg from 'pg';
import { vi } from 'vitest';

/** The texts a piece of work sends to Postgres, one per round trip (every pg client's query watched). */
export async function roundTrips(work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args) {
    const text = args[0] as string | { text: string };
    sent.push(typeof text === 'string' ? text : text.text);
    return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
  });
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return sent;
}
