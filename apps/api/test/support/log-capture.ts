import { loggerOptions } from '../../src/logger';

/** The API's real logger options, writing into memory: what a test reads back is what stdout would carry. */
export function captureLogs(level = 'info') {
  const raw: string[] = [];
  return {
    raw,
    logger: loggerOptions(level, { write: (line: string) => void raw.push(line) }),
    /** Parsed lines, optionally only those of one request. */
    lines(reqId?: string): Record<string, unknown>[] {
      const parsed = raw.map((line) => JSON.parse(line) as Record<string, unknown>);
      return reqId === undefined ? parsed : parsed.filter((line) => line.reqId === reqId);
    },
    clear() {
      raw.length = 0;
    },
  };
}
