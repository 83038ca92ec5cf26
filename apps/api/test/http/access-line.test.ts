import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AccessFields, accessMessage, writeAccessLine } from '../../src/access-line';
import { loggerOptions } from '../../src/logger';

// The pre-built access line against pino's own line for the same fields: byte for byte.

function capture(options: pino.LoggerOptions = loggerOptions('info') as pino.LoggerOptions) {
  const lines: string[] = [];
  const root = pino(options, { write: (line: string) => void lines.push(line) });
  return { root, lines };
}

const info = { name: 'info', number: 30 } as const;
const fields = (overrides: Partial<AccessFields> = {}): AccessFields => ({
  method: 'GET',
  url: '/api/v1/client/article/a-slug?page=2',
  statusCode: 200,
  responseTime: 1.3,
  remoteAddress: '127.0.0.1',
  ...overrides,
});

/** The line written by writeAccessLine and the line pino writes for the same fields, on one logger. */
function bothLines(given: AccessFields, options?: pino.LoggerOptions) {
  const { root, lines } = capture(options);
  const log = root.child({ reqId: 'req-1' });
  writeAccessLine(log, info, given);
  log.info(given, accessMessage);
  return lines;
}

describe('the access line', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-11-27T16:00:00.123Z'));
  });
  afterEach(() => vi.useRealTimers());

  it.each([
    ['an ordinary request', fields()],
    ['quotes, backslashes and control characters', fields({ url: '/x?q="a\\b"\n\t\u0001' })],
    ['non-ASCII and a lone surrogate', fields({ url: '/x?q=é漢字\ud800', method: 'PATCH' })],
    ['an IPv6 address and a whole number of ms', fields({ remoteAddress: '::1', responseTime: 12 })],
    ['a time that is not a number', fields({ responseTime: Number.NaN, statusCode: 503 })],
  ])('is the line pino writes: %s', (_name, given) => {
    const [prebuilt, pinos] = bothLines(given);
    expect(JSON.parse(prebuilt as string)).toEqual(JSON.parse(pinos as string));
    if (!/[\ud800-\udfff]/.test(given.url)) expect(prebuilt).toBe(pinos);
  });

  it('keeps the request id and every binding of the request logger', () => {
    const [line] = bothLines(fields());
    expect(JSON.parse(line as string)).toMatchObject({
      level: 30,
      time: Date.parse('2026-11-27T16:00:00.123Z'),
      pid: process.pid,
      reqId: 'req-1',
      msg: 'request completed',
    });
  });

  it("is put together without pino's log call with the API's own logger options", () => {
    const { root, lines } = capture();
    const log = root.child({ reqId: 'req-2' }, { level: 'info' });
    const logged = vi.spyOn(log, 'info');
    writeAccessLine(log, info, fields());
    expect(logged).not.toHaveBeenCalled();
    expect(lines).toHaveLength(1);
  });

  it('is written by pino itself when the logger is configured in a way it does not reproduce', () => {
    const configured: pino.LoggerOptions[] = [
      { mixin: () => ({ extra: 1 }) },
      { formatters: { log: (object) => ({ ...object, formatted: true }) } },
      { serializers: { url: () => '[url]' } },
      { redact: ['url'] },
      { messageKey: 'message' },
      { nestedKey: 'payload' },
    ];
    for (const options of configured) {
      const [prebuilt, pinos] = bothLines(fields(), options);
      expect(prebuilt).toBe(pinos);
    }
  });
});
