import { type Db, recordSiteKeysUsed } from '@newsroom/domain';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Remembers which site keys client requests presented, and writes their lastUsedAt to Postgres at most once
 * per interval (a minute), outside request handling: the client read path pays one Set.add per request and
 * never waits on the database for it. A process that dies loses at most one interval of records; the value
 * is for administrators deciding which keys to revoke, so minute precision is enough.
 */
export class SiteKeyUsage {
  private used = new Set<string>();
  private readonly timer: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    intervalMs = 60_000,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  record(keyId: string): void {
    this.used.add(keyId);
  }

  /** Writes what was recorded since the last flush (one UPDATE). Failures are logged and retried next time. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.used.size === 0) return;
      const keyIds = [...this.used];
      this.used = new Set();
      try {
        await recordSiteKeysUsed(this.db, keyIds, new Date());
      } catch (error) {
        for (const keyId of keyIds) this.used.add(keyId);
        this.log.warn({ err: error, keys: keyIds.length }, 'could not record site keys as used');
      }
    });
    return this.flushing;
  }

  /** Stops the timer and writes what is left (on app close, before the database goes). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
