import type { WorkerConfig } from '@newsroom/config';
import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * The worker's logger: `name: 'worker'` on every line (so job fields must not use `name`; they say
 * `job`), JSON lines, or pino-pretty for a developer at a terminal (NODE_ENV=development, stdout a TTY).
 */
export async function createWorkerLogger(
  config: Pick<WorkerConfig, 'env' | 'logLevel'>,
  stream?: DestinationStream,
): Promise<Logger> {
  return pino({ level: config.logLevel, name: 'worker' }, stream ?? (await developmentLogStream(config.env)));
}

async function developmentLogStream(env: string): Promise<DestinationStream | undefined> {
  if (env !== 'development' || process.stdout.isTTY !== true) return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}
