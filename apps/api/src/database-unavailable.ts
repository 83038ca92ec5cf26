import { HttpError } from './http-error';

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const databaseRetryAfterSeconds = 5;

/**
 * What a request gets when Postgres is unreachable, hung or too slow (see isDatabaseUnavailable): a 503 a
 * client can retry, instead of a 500 or a hang. The pool reconnects by itself; nothing needs restarting.
 */
export function databaseUnavailableError(): HttpError {
  return new HttpError(503, 'DATABASE_UNAVAILABLE', 'The database is unavailable; try again shortly', {
    'retry-after': String(databaseRetryAfterSeconds),
  });
}
