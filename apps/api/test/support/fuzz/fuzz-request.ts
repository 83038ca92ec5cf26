import fc from 'fast-check';
import {
  hostileBodyText,
  hostileUrlText,
  hostileValue,
  oddContentType,
  oddHeaders,
  RawJson,
  RawUrlText,
} from './hostile-values';
import type { Operation, Parameter } from './openapi-operations';
import { type Hints, valueFor } from './schema-values';

export interface Credentials {
  adminToken: string;
  publisherToken: string;
  networkKey: string;
  siteKey: string;
}

export interface FuzzRequest {
  /** HEAD now and then for a GET: Fastify answers it from the GET route, without a body. */
  method: Operation['method'] | 'HEAD';
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

/** JSON text of a generated value, writing RawJson tokens (1e309, -0) as they are. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof RawUrlText) return JSON.stringify(value.encoded);
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJsonText(item)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * Percent-encoding of any JS string, lone surrogates included (encodeURIComponent throws on them):
 * each code point as generalised UTF-8, so a lone surrogate arrives as the bytes ED A0 80 and the like.
 */
export function percentEncode(text: string): string {
  let out = '';
  for (const char of text) {
    if (/^[A-Za-z0-9\-_.~]$/.test(char)) {
      out += char;
      continue;
    }
    for (const byte of generalisedUtf8(char.codePointAt(0) as number))
      out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function generalisedUtf8(codePoint: number): number[] {
  if (codePoint < 0x80) return [codePoint];
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 63)];
  if (codePoint < 0x10000)
    return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 63), 0x80 | (codePoint & 63)];
  return [
    0xf0 | (codePoint >> 18),
    0x80 | ((codePoint >> 12) & 63),
    0x80 | ((codePoint >> 6) & 63),
    0x80 | (codePoint & 63),
  ];
}

/** URL text of one value: strings encoded, numbers as JS writes them (Infinity), structures as JSON. */
function urlText(value: unknown): string {
  if (value instanceof RawUrlText) return value.encoded;
  if (value instanceof RawJson) return percentEncode(value.text);
  if (typeof value === 'string') return percentEncode(value);
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return percentEncode(toJsonText(value));
  return percentEncode(String(value));
}

/** Query pairs of one parameter: an array value repeats the key. */
const queryPairs = (name: string, value: unknown): [string, string][] =>
  Array.isArray(value)
    ? value.map((item) => [percentEncode(name), urlText(item)])
    : [[percentEncode(name), urlText(value)]];

const urlValueFor = (parameter: Parameter, hints: Hints) =>
  fc.oneof(
    { weight: 8, arbitrary: valueFor(parameter.schema, hints, parameter.name) },
    { weight: 1, arbitrary: hostileUrlText },
  );

const sometimes = <T>(arbitrary: fc.Arbitrary<T>, weight = 7) =>
  fc.oneof({ weight, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

function queryFor(operation: Operation, hints: Hints): fc.Arbitrary<[string, string][]> {
  const parameters = operation.query.map((parameter) => {
    const value = urlValueFor(parameter, hints);
    const present = parameter.required
      ? fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) })
      : fc.boolean();
    return fc
      .tuple(present, value, sometimes(value))
      .map(([isPresent, first, duplicate]) =>
        isPresent
          ? [
              ...queryPairs(parameter.name, first),
              ...(duplicate === undefined ? [] : queryPairs(parameter.name, duplicate)),
            ]
          : [],
      );
  });
  const unknown = sometimes(
    fc.array(
      fc.tuple(
        fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'a[b]', '')),
        hostileValue,
      ),
      {
        minLength: 1,
        maxLength: 3,
      },
    ),
  );
  return fc
    .tuple(fc.tuple(...parameters), unknown)
    .map(([known, extra]) => [
      ...known.flat(),
      ...(extra ?? []).flatMap(([name, value]) => queryPairs(name, value)),
    ]);
}

function pathFor(operation: Operation, hints: Hints): fc.Arbitrary<string> {
  const segments = operation.pathParams.map((parameter) => urlValueFor(parameter, hints).map(urlText));
  return fc.tuple(...segments).map((values) => {
    let path = operation.path;
    operation.pathParams.forEach((parameter, index) => {
      path = path.replace(`{${parameter.name}}`, values[index] as string);
    });
    return path;
  });
}

interface Auth {
  headers: Record<string, string>;
  query: [string, string][];
}

const bearer = (token: string): Auth => ({ headers: { authorization: `Bearer ${token}` }, query: [] });
const apiKeyHeader = (key: string): Auth => ({ headers: { 'x-api-key': key }, query: [] });
const apiKeyQuery = (key: string): Auth => ({ headers: {}, query: [['api_key', percentEncode(key)]] });

/** The right credentials for the operation most of the time; none, wrong or garbage now and then. */
function authFor(operation: Operation, credentials: Credentials): fc.Arbitrary<Auth> {
  const { adminToken, publisherToken, networkKey, siteKey } = credentials;
  const right: Record<Operation['caller'], Auth[]> = {
    anyone: [{ headers: {}, query: [] }],
    admin: [bearer(adminToken)],
    publisher: [bearer(publisherToken)],
    'dashboard user': [bearer(adminToken), bearer(publisherToken)],
    client: [apiKeyHeader(networkKey), apiKeyHeader(siteKey), apiKeyQuery(networkKey), apiKeyQuery(siteKey)],
  };
  const wrong: Auth[] = [
    { headers: {}, query: [] },
    bearer('junk'),
    bearer('a.b.c'),
    bearer(
      `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.`,
    ),
    bearer(operation.caller === 'admin' ? publisherToken : adminToken),
    { headers: { authorization: 'Basic Zm9vOmJhcg==' }, query: [] },
    apiKeyHeader('x'.repeat(300)),
    apiKeyHeader(''),
    apiKeyQuery(`${networkKey}\u0000`),
  ];
  return fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...right[operation.caller]) },
    { weight: 1, arbitrary: fc.constantFrom(...wrong) },
  );
}

interface Body {
  payload?: string | Buffer;
  contentType?: string;
}

function bodyFor(operation: Operation, hints: Hints): fc.Arbitrary<Body> {
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>('application/json') },
    { weight: 1, arbitrary: oddContentType },
  );
  const payload: fc.Arbitrary<string | Buffer | undefined> = operation.body
    ? fc.oneof(
        { weight: 8, arbitrary: valueFor(operation.body, hints).map(toJsonText) },
        { weight: 1, arbitrary: hostileBodyText },
      )
    : fc.oneof(
        { weight: 10, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.constantFrom('', ' ', '{}') },
        { weight: 1, arbitrary: hostileBodyText },
      );
  return fc
    .tuple(payload, contentType)
    .map(([body, type]) =>
      body === undefined ? {} : { payload: body, ...(type === undefined ? {} : { contentType: type }) },
    );
}

/** One generated request for the operation: path, query (duplicates, unknown keys), credentials, body. */
export function requestFor(
  operation: Operation,
  hints: Hints,
  credentials: Credentials,
): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      pathFor(operation, hints),
      queryFor(operation, hints),
      authFor(operation, credentials),
      bodyFor(operation, hints),
      sometimes(oddHeaders, 5),
      operation.method === 'GET' ? sometimes(fc.constant('HEAD' as const), 9) : fc.constant(undefined),
    )
    .map(([path, query, auth, body, extraHeaders, head]) => {
      const pairs = [...query, ...auth.query];
      const search = pairs.length === 0 ? '' : `?${pairs.map(([key, value]) => `${key}=${value}`).join('&')}`;
      const headers = {
        ...extraHeaders,
        ...auth.headers,
        ...(body.contentType === undefined ? {} : { 'content-type': body.contentType }),
      };
      return {
        method: head ?? operation.method,
        url: `${path}${search}`,
        headers,
        ...(body.payload === undefined ? {} : { payload: body.payload }),
      };
    });
}

/** A short account of a request for failure messages (long values cut, tokens named, not shown). */
export function describeRequest(request: FuzzRequest, credentials: Credentials): string {
  const cut = (text: string) =>
    text.length > 300 ? `${text.slice(0, 300)}... (${text.length} chars)` : text;
  const names = new Map<string, string>([
    [credentials.adminToken, '<admin token>'],
    [credentials.publisherToken, '<publisher token>'],
  ]);
  const headers = Object.entries(request.headers).map(([key, value]) => {
    const token = value.replace(/^Bearer /, '');
    return `${key}: ${names.get(token) ?? cut(value)}`;
  });
  const payload =
    request.payload === undefined
      ? ''
      : `\n  body: ${cut(Buffer.isBuffer(request.payload) ? `<bytes ${request.payload.toString('hex')}>` : JSON.stringify(request.payload))}`;
  return `${request.method} ${cut(request.url)}\n  ${headers.join('\n  ')}${payload}`;
}
