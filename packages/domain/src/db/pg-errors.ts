import pg from 'pg';

/** Whether `error` is Postgres' no_data_found (P0002): what `article_not_written()` raises. */
export function isNoDataFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P0002';
}

/**
 * Whether Postgres itself refused a statement (an error it answered, with its SQLSTATE), as opposed to a server
 * unreachable, overloaded or answering too late: the statement's transaction did not commit.
 */
export function isRefusedByPostgres(error: unknown): boolean {
  return error instanceof pg.DatabaseError && !isDatabaseUnavailable(error);
}

/** Whether `error` is Postgres' unique_violation (23505), optionally on one named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint: violated } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && (constraint === undefined || violated === constraint);
}

// Failures that say "Postgres cannot be reached or answered too late", not "this request is wrong":
// worth a retry later (503), unlike a bug (500).
const unreachableNodeCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// What pg says when the server's byte stream stops making sense (a corrupted or truncated stream, a
// middlebox gone wrong): the connection cannot be trusted with another query.
const brokenStreamMessages = [
  /^received invalid response: /, // pg-protocol: an unknown message type
  /^Postgres sent a malformed message$/, // GuardedSocket: parsing a message threw
  /^Received unexpected \w+ message from backend\.$/, // pg: an answer to no query
];
const unavailableMessages = [
  /^Query read timeout$/, // our query deadline (pg's query_timeout, DeadlineCursor)
  /^timeout exceeded when trying to connect$/, // pool checkout (connectionTimeoutMillis)
  /^Connection terminated/, // the socket closed under a query, or connecting timed out
  /is not queryable$/, // a client whose connection already failed
  ...brokenStreamMessages,
];

/** Whether `error` says the connection's protocol stream is garbled: discard the connection. */
export function isBrokenConnection(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { message, code } = error as { message?: unknown; code?: unknown };
  if (code === '08P01') return true; // protocol_violation: Postgres read garbage from us
  return typeof message === 'string' && brokenStreamMessages.some((pattern) => pattern.test(message));
}

/**
 * SQLSTATEs of an unavailable or overloaded server: class 08 (connection exception), class 53
 * (insufficient resources, e.g. too many connections), 57P01-57P05 (shutdown, cannot connect now, idle
 * session timeouts) and 57014 (statement_timeout or a cancel).
 */
const isUnavailableSqlState = (code: string) =>
  /^(08|53)[0-9A-Z]{3}$/.test(code) || /^57P0[1-5]$/.test(code) || code === '57014';

/** Whether `error` means the database is unreachable, hung or too slow (worth a retry), as opposed to a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (unreachableNodeCodes.has(code) || isUnavailableSqlState(code)))
    return true;
  if (typeof message === 'string' && unavailableMessages.some((pattern) => pattern.test(message)))
    return true;
  // net.connect to a name with several addresses fails with an AggregateError of each attempt's error.
  return Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailable);
}

/**
 * Whether `error` is Postgres refusing a text-search query it cannot parse with its fixed operator stack
 * (32 deep, tsquery.c): a run of 33 or more negations (`-------`, `- - -`) in a client's `q`. The input's
 * fault, not ours. Postgres 15 raises it as XX000 and later versions as 54001 (statement too complex), so
 * the source file names it.
 */
export function isSearchTooComplex(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, file } = error as { code?: unknown; file?: unknown };
  return file === 'tsquery.c' && (code === '54001' || code === 'XX000');
}

/**
 * Whether `error` is a hot standby cancelling a query whose rows replay must remove or change ("canceling
 * statement due to conflict with recovery": 40001, or 40P01 for a buffer pin deadlock): the replica is
 * healthy, the same read on the primary succeeds.
 */
export function isRecoveryConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    (code === '40001' || code === '40P01') &&
    typeof message === 'string' &&
    message.includes('conflict with recovery')
  );
}
