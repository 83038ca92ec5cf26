import { withDeadline } from '../../with-deadline';

export interface ReplicaWatchOptions {
  /** How far the replica has replayed; null: it is not a replica (any more). */
  replayedPosition: () => Promise<bigint | null>;
  /** Probe interval, and the bound of one probe or poll: past it the replica counts as down. */
  probeMs: number;
  /** Between two polls of the replay position while reads wait for it. */
  pollMs?: number;
  /** Told every change of state (error: why it went down). */
  onState?: (up: boolean, error?: Error) => void;
  /** Told the replay position after each successful probe. */
  onProbe?: (replayed: bigint) => void;
}

interface Waiter {
  fence: bigint;
  resolve: (replayed: boolean) => void;
  timer: NodeJS.Timeout;
}

/**
 * A streaming replica as the API sees it: up or down (a probe every `probeMs`, bounded by it), and how far it
 * has replayed. `replayed(fence, withinMs)` answers whether it holds everything before `fence` within the
 * bound, polling the replay position (one query for all waiting reads) only while someone waits beyond what is
 * already known. Down, every wait answers false at once, and the probe brings it back when it answers again.
 */
export class ReplicaWatch {
  private position = -1n;
  private isUp = false;
  private readonly waiters = new Set<Waiter>();
  private polling = false;
  private probeTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly options: ReplicaWatchOptions) {}

  get up(): boolean {
    return this.isUp;
  }

  /** The first probe (bounded), then one every probeMs. */
  async start(): Promise<void> {
    await this.probe();
    this.probeTimer = setInterval(() => void this.probe(), this.options.probeMs);
    this.probeTimer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.markDown();
  }

  /** Whether the replica has replayed up to `fence` within `withinMs` (false at once while it is down). */
  replayed(fence: bigint, withinMs: number): Promise<boolean> {
    if (!this.isUp) return Promise.resolve(false);
    if (this.position >= fence) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        fence,
        resolve,
        timer: setTimeout(() => {
          this.waiters.delete(waiter);
          resolve(false);
        }, withinMs),
      };
      this.waiters.add(waiter);
      void this.poll();
    });
  }

  /** A read on the replica failed as unreachable: down until the next probe answers. */
  lost(error: Error): void {
    this.setDown(error);
  }

  private async probe(): Promise<void> {
    if (this.closed) return;
    try {
      this.advance(await this.readPosition());
      this.options.onProbe?.(this.position);
      if (!this.isUp && !this.closed) {
        this.isUp = true;
        this.options.onState?.(true);
      }
    } catch (error) {
      this.setDown(error as Error);
    }
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      while (this.waiters.size > 0 && this.isUp) {
        this.advance(await this.readPosition());
        if (this.waiters.size > 0)
          await new Promise((resolve) => setTimeout(resolve, this.options.pollMs ?? 10));
      }
    } catch (error) {
      this.setDown(error as Error);
    } finally {
      this.polling = false;
    }
  }

  private async readPosition(): Promise<bigint> {
    const { probeMs } = this.options;
    const position = await withDeadline(
      this.options.replayedPosition(),
      probeMs,
      () => new Error(`the replica did not answer within ${probeMs} ms`),
    );
    if (position === null) throw new Error('the replica is not in recovery (promoted?): it is not read');
    return position;
  }

  private advance(position: bigint): void {
    if (position <= this.position) return;
    this.position = position;
    for (const waiter of this.waiters) {
      if (waiter.fence <= position) this.settle(waiter, true);
    }
  }

  private setDown(error: Error): void {
    const wasUp = this.isUp;
    this.markDown();
    if (wasUp) this.options.onState?.(false, error);
  }

  private markDown(): void {
    this.isUp = false;
    // Back up, it may be another replica (rebuilt from an older backup): know nothing of it until probed.
    this.position = -1n;
    for (const waiter of this.waiters) this.settle(waiter, false);
  }

  private settle(waiter: Waiter, replayed: boolean): void {
    clearTimeout(waiter.timer);
    this.waiters.delete(waiter);
    waiter.resolve(replayed);
  }
}
