/** What the fuzz test asserts of every answer, whatever the request. */

export interface Answer {
  statusCode: number;
  headers: Record<string, unknown>;
  body: string;
}

/** Text that only a leak would put in a body: stack frames, file paths, Postgres, driver and Fastify internals. */
const leaks: [string, RegExp][] = [
  ['a stack frame', /\bat [^\s()]+ \([^)]*:\d+:\d+\)|\bat (?:file:\/\/|node:|\/)[^\s]*:\d+:\d+/],
  ['a source path', /node_modules|node:internal|\/work\/|\.ts:\d+/],
  [
    'Postgres text',
    /syntax error at or near|violates [a-z -]*constraint|duplicate key value|invalid input syntax for|invalid byte sequence for encoding|out of range for type|value too long for type|relation "[^"]*" does not exist|column "[^"]*" does not exist|current transaction is aborted/i,
  ],
  [
    'driver text',
    /connect ECONNREFUSED \d|127\.0\.0\.1:(?:5432|6379)|Connection terminated|kysely|\bpg-pool\b|ReplyError|MaxRetriesPerRequest/,
  ],
  ['a JS error', /\b(?:TypeError|ReferenceError|RangeError|SyntaxError): |Cannot read properties of/],
  ['a Fastify code', /\bFST_[A-Z_]+/],
];

const errorKeys = new Set(['statusCode', 'code', 'error', 'message', 'details']);

/** Problems of an error body against the one shape of the error handler (empty: none). */
function errorShapeProblems(answer: Answer): string[] {
  const type = String(answer.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) return [`error with content-type ${JSON.stringify(type)}`];
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return ['error body is not JSON'];
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return ['error body is not an object'];
  const problems: string[] = [];
  const extra = Object.keys(body).filter((key) => !errorKeys.has(key));
  if (extra.length > 0) problems.push(`error body has unexpected keys ${extra.join(', ')}`);
  if (body.statusCode !== answer.statusCode)
    problems.push(`statusCode ${body.statusCode} in a ${answer.statusCode}`);
  if (typeof body.code !== 'string' || !/^[A-Z][A-Z0-9_]*$/.test(body.code))
    problems.push('code is not UPPER_SNAKE');
  if (typeof body.error !== 'string') problems.push('error is not a string');
  if (typeof body.message !== 'string') problems.push('message is not a string');
  if (body.details !== undefined) {
    const valid =
      Array.isArray(body.details) &&
      body.details.every(
        (detail) =>
          detail !== null &&
          typeof detail === 'object' &&
          Object.keys(detail).sort().join() === 'message,path' &&
          typeof detail.path === 'string' &&
          typeof detail.message === 'string',
      );
    if (!valid) problems.push('details is not [{ path, message }]');
  }
  return problems;
}

/** Everything wrong with an answer: a 5xx, an error not in the one shape, anything that looks like a leak. */
export function answerProblems(answer: Answer, method: string): string[] {
  const problems: string[] = [];
  if (answer.statusCode >= 500) problems.push(`status ${answer.statusCode}`);
  if (method === 'HEAD') return problems;
  if (answer.statusCode >= 400) problems.push(...errorShapeProblems(answer));
  for (const [what, pattern] of leaks) if (pattern.test(answer.body)) problems.push(`body contains ${what}`);
  return problems;
}
