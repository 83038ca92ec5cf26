import type { AddressInfo } from 'node:net';
import { pruneArticleChanges } from '@newsroom/domain';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { insertArticle } from '../../../apps/api/test/support/content-fixtures';
import { command, createNewsroomScenario } from '../../../apps/api/test/support/newsroom-commands';
import { createTestApp, testApiKey } from '../../../apps/api/test/support/test-app';
import {
  type ChangeEvent,
  type ClientArticle,
  createNewsroomClient,
  type NewsroomClient,
  unwrap,
} from '../src';

// The API's mirror property (apps/api/test/client/change-feed-mirror.test.ts) through the SDK: a copy kept
// by client.changes() over HTTP equals /client/all after any sequence of newsroom commands, for a site key and
// the network key; every sync resumes from the cursor the copy stored; a cursor past retention resets it.
const testApp = await createTestApp({ env: { RATE_LIMIT_CLIENT_ALL: 'off' } });
const { app, db, config, close } = testApp;
afterAll(close);
const { northKey, run } = await createNewsroomScenario(testApp);
await app.listen({ host: '127.0.0.1', port: 0 });
const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

/** A child site's copy, as the SDK README tells one to keep it. */
class SdkMirror {
  readonly articles = new Map<string, ClientArticle>();
  cursor: string | null = null;
  readonly events: ChangeEvent['type'][] = [];
  constructor(readonly client: NewsroomClient) {}

  /** Reads from the stored cursor until caught up (a new iterator each time: resuming is the point). */
  async sync(limit = 100): Promise<void> {
    for await (const event of this.client.changes({ cursor: this.cursor, limit, follow: false })) {
      this.events.push(event.type);
      if (event.type === 'reset') this.articles.clear();
      else if (event.type === 'upsert') this.articles.set(event.id, event.article);
      else if (event.type === 'delete') this.articles.delete(event.id);
      if ('cursor' in event && event.cursor !== null) this.cursor = event.cursor;
    }
  }

  /** Follows until the copy equals /all (bounded: the feed trails the oldest open transaction anywhere). */
  async expectEqualToAll(): Promise<void> {
    const deadline = Date.now() + 90_000;
    for (;;) {
      await this.sync();
      const all = await unwrap(this.client.api.GET('/api/v1/client/all'));
      const expected = sortById((Array.isArray(all) ? all : all.data) as ClientArticle[]);
      const copy = sortById([...this.articles.values()]);
      if (JSON.stringify(copy) === JSON.stringify(expected) || Date.now() > deadline) {
        expect(copy).toEqual(expected);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const sortById = <T extends { id: string }>(articles: T[]) =>
  [...articles].sort((a, b) => a.id.localeCompare(b.id));
const clientFor = (apiKey: string) => createNewsroomClient({ baseUrl, apiKey });

describe('client.changes(): the change feed through the SDK', () => {
  it('keeps a copy equal to /client/all after any sequence of changes, for a site key and the network key', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
        const mirrors = [new SdkMirror(clientFor(northKey)), new SdkMirror(clientFor(testApiKey))];
        for (const mirror of mirrors) await mirror.sync();
        await run(commands, mirrors);
        for (const mirror of mirrors) await mirror.expectEqualToAll();
      }),
      { numRuns: 10 },
    );
  }, 600_000);

  it('starts with a reset and a full read, and resets again when its cursor is past retention (410)', async () => {
    const mirror = new SdkMirror(clientFor(testApiKey));
    await mirror.sync();
    expect(mirror.events[0]).toBe('reset');
    expect(mirror.events.at(-1)).toBe('caughtUp');
    const stored = mirror.cursor;
    // Something changes after the stored cursor, and the retention job prunes it: the cursor answers 410.
    await insertArticle(db, { slug: 'soon-forgotten' });
    await sql`update article_changes set changed_at = now() - interval '40 days'`.execute(db);
    const olderThan = new Date(Date.now() - config.changeFeed.retentionDays * 86_400_000);
    expect(await pruneArticleChanges(db, olderThan)).toBeGreaterThan(0);

    mirror.events.length = 0;
    mirror.articles.set('stale', { id: 'stale' } as ClientArticle);
    mirror.cursor = stored;
    await mirror.expectEqualToAll();
    expect(mirror.events[0]).toBe('reset');
    expect(mirror.articles.has('stale')).toBe(false);
  }, 120_000);
});
