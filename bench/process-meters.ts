import { readFileSync, writeFileSync } from 'node:fs';
import type { Db } from '@newsroom/domain';
import { sql } from 'kysely';

/** Resident memory of one sample, split into anonymous pages (heaps, buffers) and file pages (mostly node's code). */
export interface RssSplit {
  anon: number;
  file: number;
}

/**
 * Peak resident memory of the worker processes since start(), the largest of them (Linux: VmHWM,
 * reset through clear_refs; where that is not allowed, samples of VmRSS every 20 ms). `split` is the
 * largest 20 ms sample's split: file pages are the node binary's code above all, shared with every node
 * process and sized by the kernel's page cache (a kernel mapping it in 2 MiB folios keeps more of it resident).
 */
export class PeakRss {
  private sampled = 0;
  private timer: NodeJS.Timeout | undefined;
  private canReset = true;
  split: RssSplit = { anon: 0, file: 0 };
  constructor(private readonly pids: number[]) {}
  private fields(pid: number): { rss: number; hwm: number; anon: number; file: number } {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+) kB`))?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM'), anon: kb('RssAnon'), file: kb('RssFile') + kb('RssShmem') };
  }
  private sample() {
    for (const pid of this.pids) {
      const { rss, anon, file } = this.fields(pid);
      if (rss > this.sampled) {
        this.sampled = rss;
        this.split = { anon, file };
      }
    }
  }
  start() {
    for (const pid of this.pids) {
      try {
        writeFileSync(`/proc/${pid}/clear_refs`, '5');
      } catch {
        this.canReset = false;
      }
    }
    this.sampled = 0;
    this.sample();
    this.timer = setInterval(() => this.sample(), 20);
  }
  now() {
    return Math.max(...this.pids.map((pid) => this.fields(pid).rss));
  }
  stop(): number {
    clearInterval(this.timer);
    const hwm = Math.max(...this.pids.map((pid) => this.fields(pid).hwm));
    return this.canReset ? Math.max(hwm, this.sampled) : this.sampled;
  }
}

/**
 * CPU seconds a process has used so far, or 0 once it is gone (Linux /proc): its time on a CPU in nanoseconds
 * (schedstat), else user + system in clock ticks (stat, 10 ms steps).
 */
export function cpuSecondsOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
  } catch {
    try {
      // Fields 14 and 15 after the command name (which may contain spaces, hence the last ')').
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks; USER_HZ is 100 on Linux
    } catch {
      return 0;
    }
  }
}

/**
 * CPU seconds used during a phase by a changing set of processes (the worker, and the Postgres
 * backends serving it, which the pool may open and close): poll `pids()` every 200 ms and add up
 * each process's growth from its first sighting (or from 0 when it first appears mid-phase).
 * A backend that exits between two polls loses its last < 200 ms.
 */
export class CpuMeter {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> = Promise.resolve();
  constructor(private readonly pids: () => Promise<number[]>) {}
  private async poll(startOfPhase: boolean) {
    for (const pid of await this.pids()) {
      const seconds = cpuSecondsOf(pid);
      if (!this.first.has(pid)) this.first.set(pid, startOfPhase ? seconds : 0);
      if (seconds > 0) this.last.set(pid, seconds);
    }
  }
  async start() {
    this.first.clear();
    this.last.clear();
    await this.poll(true);
    this.timer = setInterval(() => {
      this.polling = this.polling.then(() => this.poll(false)).catch(() => {});
    }, 200);
  }
  async stop(): Promise<number> {
    clearInterval(this.timer);
    await this.polling;
    await this.poll(false);
    let total = 0;
    for (const [pid, seconds] of this.last) total += seconds - (this.first.get(pid) ?? 0);
    return total;
  }
}

/** The Postgres backends serving this database (those of one application only, when named): a CpuMeter's pids. */
export async function backendPids(db: Db, applicationName?: string): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`
    select pid from pg_stat_activity
     where datname = current_database() and (${applicationName ?? null}::text is null or application_name = ${applicationName ?? null})`.execute(
    db,
  );
  return rows.map((row) => row.pid);
}

/** CPU milliseconds (user + system) this process has used since `start` (a process.cpuUsage()). */
export function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}
