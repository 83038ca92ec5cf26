import {
  type Db,
  type DbOrTx,
  findPrimaryWalPosition,
  findReplayedWalPosition,
  isDatabaseUnavailable,
  isRecoveryConflict,
  replayFenceOf,
} from '@newsroom/domain';
import { PrimaryPosition } from './primary-position';
import { ReplicaWatch } from './replica-watch';

/** Why a content read went where it went (a metric label). */
export type ContentReadRoute =
  | 'replica'
  /** The replica had not replayed the primary's position within DATABASE_REPLICA_MAX_LAG_MS. */
  | 'primary_lagging'
  /** The replica was down (its probe failed), or a read on it just failed as unreachable. */
  | 'primary_replica_down'
  /** The primary's position could not be read: the read goes there (and fails there if it is down). */
  | 'primary_position_unknown'
  /** The replica cancelled the read for a conflict with replay (hot standby): read again on the primary. */
  | 'primary_recovery_conflict';

/**
 * Where the client content reads run (lists, articles, `/all`, taxonomies, the site, feeds, sitemaps): the one
 * place that chooses between the primary and the replica. The change feed, previews, key checks, the dashboard
 * and every write use the primary directly (`app.db`).
 */
export interface ContentDatabase {
  /**
   * Runs one read on the chosen database; a read on the replica that finds it unreachable, or that it cancels
   * for a conflict with replay, runs again on the primary.
   */
  read<T>(read: (db: DbOrTx) => Promise<T>): Promise<T>;
  close(): void;
}

/** No replica: every read on the primary. */
export function primaryContent(primary: Db): ContentDatabase {
  return { read: (read) => read(primary), close() {} };
}

export interface ReplicaContentOptions {
  primary: Db;
  replica: Db;
  /** How long a read waits for the replica to replay the primary's position before reading the primary. */
  maxLagMs: number;
  /** How often the replica is probed, and the bound of a probe. */
  probeMs: number;
  onRoute?: (route: ContentReadRoute) => void;
  onState?: (up: boolean, error?: Error) => void;
  /** Bytes of WAL the primary had written past the replica's replay position, at each probe. */
  onLag?: (bytes: number) => void;
}

/**
 * Reads on a streaming replica, never older than the primary was when the read began: each read first takes
 * the primary's WAL position (one query shared by concurrent reads, `PrimaryPosition`) and waits, bounded,
 * until the replica has replayed it. So a cache refilled after a NOTIFY holds the change it was retired for
 * (the commit preceded the notification, which preceded the refill), and `/all` read after a change feed
 * cursor holds everything before that cursor. A lagging or unreachable replica sends the read to the primary.
 */
export class ReplicaContent implements ContentDatabase {
  private readonly positions: PrimaryPosition;
  private readonly watch: ReplicaWatch;

  constructor(private readonly options: ReplicaContentOptions) {
    this.positions = new PrimaryPosition(() => findPrimaryWalPosition(options.primary));
    this.watch = new ReplicaWatch({
      probeMs: options.probeMs,
      replayedPosition: () => findReplayedWalPosition(options.replica),
      onState: options.onState,
      onProbe: (replayed) => {
        const primary = this.positions.latest;
        if (primary !== null) options.onLag?.(Math.max(0, Number(primary - replayed)));
        // The primary's position moves only when someone reads it: keep the lag measured while reads are few.
        void this.positions.next().catch(() => {});
      },
    });
  }

  get replicaUp(): boolean {
    return this.watch.up;
  }

  /** Probes the replica once (bounded by probeMs), then keeps probing. */
  start(): Promise<void> {
    return this.watch.start();
  }

  close(): void {
    this.watch.close();
  }

  async read<T>(read: (db: DbOrTx) => Promise<T>): Promise<T> {
    const route = await this.route();
    this.options.onRoute?.(route);
    if (route !== 'replica') return read(this.options.primary);
    try {
      return await read(this.options.replica);
    } catch (error) {
      if (isRecoveryConflict(error)) {
        this.options.onRoute?.('primary_recovery_conflict');
        return read(this.options.primary);
      }
      if (!isDatabaseUnavailable(error)) throw error;
      this.watch.lost(error as Error);
      this.options.onRoute?.('primary_replica_down');
      return read(this.options.primary);
    }
  }

  private async route(): Promise<ContentReadRoute> {
    if (!this.watch.up) return 'primary_replica_down';
    let position: bigint;
    try {
      position = await this.positions.next();
    } catch {
      return 'primary_position_unknown';
    }
    if (await this.watch.replayed(replayFenceOf(position), this.options.maxLagMs)) return 'replica';
    return this.watch.up ? 'primary_lagging' : 'primary_replica_down';
  }
}
