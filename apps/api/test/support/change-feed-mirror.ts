import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChangeItem, type ChangesPage, followChanges } from './change-feed-reader';
import { command, createNewsroomScenario } from './newsroom-commands';
import { type TestApp, testApiKey } from './test-app';

// The change feed's contract, as a property: a child site that reads /client/all once and then follows
// /client/changes holds exactly what /client/all answers, whatever the newsroom did in between (creates, edits,
// publishes, unpublishes, deletions, host-site moves, site renames, imports, approvals, rejections), for a site
// key and for the network key; and so does one that starts from nothing (`initial=true`). The commands:
// ./newsroom-commands.ts. Run on one database (client/change-feed-mirror.test.ts) and with the client reads on a
// lagging streaming replica (replica/read-replica.test.ts): parameterised by the app, not copied.

const client = (app: TestApp['app'], key: string) => (url: string) =>
  app.inject({ method: 'GET', url: `/api/v1/client${url}`, headers: { 'x-api-key': key } });

/** A child site's copy of the content: /all once, then every change applied in order. */
class Mirror {
  readonly articles = new Map<string, unknown>();
  constructor(
    private readonly read: ReturnType<typeof client>,
    public cursor: string,
  ) {}

  static async start(app: TestApp['app'], key: string): Promise<Mirror> {
    const read = client(app, key);
    // The cursor first, then /all: changes in between are applied again (harmlessly), never missed.
    const start = (await read('/changes')).json() as ChangesPage;
    const mirror = new Mirror(read, start.meta.next);
    for (const article of await allOf(read)) mirror.articles.set(article.id, article);
    return mirror;
  }

  /** From nothing: the first page of `initial=true`; sync() reads the rest of the walk, then the changes. */
  static async fromNothing(app: TestApp['app'], key: string): Promise<Mirror> {
    const read = client(app, key);
    const first = (await read('/changes?initial=true&limit=3')).json() as ChangesPage;
    const mirror = new Mirror(read, first.meta.next);
    mirror.apply(first.data);
    return mirror;
  }

  apply(items: ChangeItem[]): void {
    for (const item of items) {
      if (item.type === 'upsert') this.articles.set(item.id, item.article);
      else this.articles.delete(item.id);
    }
  }

  async sync(limit: number): Promise<void> {
    const { items, next } = await followChanges(this.read, this.cursor, { limit, timeoutMs: 0 });
    this.apply(items);
    this.cursor = next;
  }

  /** Follows the feed until the copy equals /all (bounded: the feed trails the oldest open transaction). */
  async expectEqualToAll(): Promise<void> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      await this.sync(100);
      const all = sortById(await allOf(this.read));
      const copy = sortById([...this.articles.values()] as Array<{ id: string }>);
      if (JSON.stringify(copy) === JSON.stringify(all) || Date.now() > deadline) {
        expect(copy).toEqual(all);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

async function allOf(read: ReturnType<typeof client>): Promise<Array<{ id: string }>> {
  const response = await read('/all');
  expect(response.statusCode, response.body).toBe(200);
  const body = response.json();
  return Array.isArray(body) ? body : body.data;
}

const sortById = <T extends { id: string }>(articles: T[]) =>
  [...articles].sort((a, b) => a.id.localeCompare(b.id));

/**
 * The property on `testApp` (its /client/all with no rate limit: RATE_LIMIT_CLIENT_ALL=off), `numRuns` sequences
 * of newsroom commands, each followed by four mirrors.
 */
export function describeChangeFeedMirror(testApp: TestApp, { numRuns }: { numRuns: number }): void {
  describe('a mirror built from /client/all + /client/changes', () => {
    it('equals /client/all after any sequence of changes, for a site key and the network key, from /all or from nothing', async () => {
      const { app } = testApp;
      const { northKey, run } = await createNewsroomScenario(testApp);
      await fc.assert(
        fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 14 }), async (commands) => {
          const mirrors = [
            await Mirror.start(app, northKey),
            await Mirror.start(app, testApiKey),
            await Mirror.fromNothing(app, northKey),
            await Mirror.fromNothing(app, testApiKey),
          ];
          await run(commands, mirrors);
          for (const mirror of mirrors) await mirror.expectEqualToAll();
        }),
        { numRuns },
      );
    }, 900_000);
  });
}
