import { comparePositions, nilUuid } from '../changes/article-change';
import { findArticleChangesAfter, findPrunedThrough } from '../changes/article-change.repository';
import type { Db } from '../db/create-db';
import {
  lockCdnPurgePosition,
  type PurgeRequest,
  saveCdnPurgePosition,
  takeCdnPurgeRequests,
  upsertCdnPurges,
} from './cdn-purge.repository';
import { surrogateKey, surrogateKeysToPurge } from './surrogate-keys';

export interface PurgeRelayResult {
  /** false: another replica holds the relay position (it relays meanwhile). */
  relayed: boolean;
  /** Outbox rows read. */
  changes: number;
  /** Whether a read stopped at `batchSize` (more may be waiting). */
  more: boolean;
  /** Distinct surrogate keys recorded (per provider). */
  keys: number;
  /** The position had fallen behind the outbox's retention: every site's lists were purged instead. */
  expired: boolean;
  /** A committed change is not final yet (an older write transaction is open): look again soon. */
  waiting: boolean;
}

/**
 * Turns the next article-change outbox rows, and the purge requests triggers wrote (site rows), into pending
 * purges for each provider, in one transaction that also advances the relay's position: each change is turned
 * into purges exactly once, whichever worker replica does it; a crash redoes it. The position row is locked
 * FOR UPDATE SKIP LOCKED (replicas never wait on each other). What a change purges: surrogateKeysToPurge.
 */
export async function relayCdnPurges(
  db: Db,
  providers: readonly string[],
  batchSize = 500,
): Promise<PurgeRelayResult> {
  return db.transaction().execute(async (tx) => {
    const position = await lockCdnPurgePosition(tx);
    if (!position)
      return { relayed: false, changes: 0, more: false, keys: 0, expired: false, waiting: false };
    const requests: PurgeRequest[] = (await takeCdnPurgeRequests(tx, batchSize)).map((request) => ({
      key: request.key,
      requestedAt: request.requestedAt,
    }));
    const requestsMore = requests.length === batchSize;
    let expired = false;
    let changesRead = 0;
    let changesMore = false;
    let waiting = false;
    const prunedThrough = await findPrunedThrough(tx);
    if (prunedThrough !== '0' && BigInt(position.xid) <= BigInt(prunedThrough)) {
      // Changes were lost to retention: which lists they touched is unknown, so every site's are purged.
      const sites = await tx.selectFrom('sites').select('id').execute();
      const now = new Date();
      for (const site of sites) requests.push({ key: surrogateKey.list(site.id), requestedAt: now });
      await saveCdnPurgePosition(tx, { xid: (BigInt(prunedThrough) + 1n).toString(), articleId: nilUuid });
      expired = true;
    } else {
      const read = await findArticleChangesAfter(tx, position, batchSize);
      const { changes, horizon } = read;
      waiting = read.waiting;
      changesRead = changes.length;
      changesMore = changes.length === batchSize;
      const last = changes[changes.length - 1];
      const next = changesMore && last ? last.position : { xid: horizon, articleId: nilUuid };
      for (const change of changes) {
        for (const key of surrogateKeysToPurge(change)) requests.push({ key, requestedAt: change.changedAt });
      }
      if (comparePositions(next, position) > 0) await saveCdnPurgePosition(tx, next);
    }
    await upsertCdnPurges(tx, providers, requests);
    return {
      relayed: true,
      changes: changesRead,
      more: changesMore || requestsMore,
      keys: new Set(requests.map((request) => request.key)).size,
      expired,
      waiting,
    };
  });
}
