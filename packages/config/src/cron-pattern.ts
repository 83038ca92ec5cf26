import { CronExpressionParser } from 'cron-parser';

/**
 * Whether `pattern` is a cron expression BullMQ's job scheduler accepts. The same parser (and version)
 * as BullMQ's, so a pattern that passes here cannot fail later inside the worker with a stack trace.
 */
export function isCronPattern(pattern: string): boolean {
  try {
    CronExpressionParser.parse(pattern, { tz: 'UTC' });
    return true;
  } catch {
    return false;
  }
}
