/**
 * Where "now" comes from for time-driven rules (scheduled actions, embargoes). Production uses the system clock;
 * tests hand in one they move by hand, so a rule is checked at any instant without waiting for it.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until moved: `set` or `advance` (tests). */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | number = Date.now()) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: Date | number): void {
    this.current = typeof at === 'number' ? at : at.getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
