import fc from 'fast-check';

/** A JSON token written as is into a body (JSON.stringify cannot write 1e309: it parses to Infinity). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Text already percent-encoded for a URL, written as is into a path segment or query string. */
export class RawUrlText {
  constructor(readonly encoded: string) {}
}

const loneSurrogate = fc
  .integer({ min: 0xd800, max: 0xdfff })
  .map((unit) => `a${String.fromCharCode(unit)}b`);

/** Strings that have broken naive code: NUL, lone surrogates, huge, invisible, right-to-left, SQL-ish. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\t\r\n',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff',
    '😀'.repeat(500),
    '\u202e\u200b\ufeff',
    'x'.repeat(70_000),
    'é'.repeat(40_000),
    "'; DROP TABLE articles; --",
    '%_\\',
    '../../../etc/passwd',
    '<script>alert(1)</script>',
    'null',
    '__proto__',
    'constructor',
    '0',
    '-1',
    'true',
  ),
  loneSurrogate,
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 20 }).map((text) => `${text}\u0000${text}`),
);

/** Numbers at and past the edges, including the non-finite ones only raw JSON can carry. */
export const hostileNumber: fc.Arbitrary<unknown> = fc.constantFrom(
  new RawJson('1e309'),
  new RawJson('-1e309'),
  new RawJson('1e-400'),
  new RawJson('-0'),
  new RawJson('1.0'),
  2 ** 53 + 2,
  -(2 ** 53 + 2),
  1e20,
  2_147_483_648,
  -1,
  0,
  0.5,
  1.7976931348623157e308,
);

/** Values of the wrong type for whatever the schema wants. */
export const wrongType: fc.Arbitrary<unknown> = fc.constantFrom(
  null,
  true,
  false,
  [],
  {},
  [1, 'a'],
  { a: 1 },
  'text',
  0,
);

/** Any hostile value, for any position. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, wrongType);

/** Query and path text JSON cannot express: bad percent-encodings, overlong NUL, number spellings. */
export const hostileUrlText: fc.Arbitrary<RawUrlText> = fc
  .constantFrom(
    '',
    '%',
    '%zz',
    '%00',
    '%C0%80',
    '%ED%A0%80',
    '%FF%FE',
    '%E2%82',
    '%2F..%2F',
    'Infinity',
    '-Infinity',
    '1e309',
    'NaN',
    '0x10',
    '1e3',
    '%201',
    '1.5',
    '-0',
    '99999999999999999999999',
    '[]',
    '{}',
    'a[b]=c',
    '&',
    '=',
    '#',
    'x'.repeat(8_000),
  )
  .map((encoded) => new RawUrlText(encoded));

/** Whole bodies: not an object, not JSON, poisoned, deep, too big. */
export const hostileBodyText: fc.Arbitrary<string | Buffer> = fc.constantFrom(
  '',
  '   ',
  'null',
  '[]',
  '"text"',
  '1e309',
  '{',
  '{"a":',
  '\u0000',
  '\ufeff{}',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
  `{"title":"${'x'.repeat(1_100_000)}"}`,
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xed, 0xa0, 0x80, 0x22, 0x7d]),
);

/** Content types a client might send with a body, right and wrong. undefined: no Content-Type at all. */
export const oddContentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json;',
  'application/json, text/plain',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/octet-stream',
  'application/vnd.api+json',
  '*/*',
  'json',
  '',
  undefined,
);

/** Headers beside the credentials that handlers and hooks read: validators, negotiation, proxies, ids. */
export const oddHeaders: fc.Arbitrary<Record<string, string>> = fc.constantFrom<Record<string, string>>(
  { 'if-none-match': '*' },
  { 'if-none-match': `"${'x'.repeat(5_000)}"` },
  { 'if-none-match': 'W/"a", , "b",' },
  { 'if-modified-since': 'not a date' },
  { accept: 'text/html' },
  { accept: 'application/xml;q=1, */*;q=0' },
  { 'accept-encoding': 'gzip, deflate, br, zstd' },
  { 'accept-encoding': 'identity;q=0' },
  { 'x-request-id': 'x'.repeat(2_000) },
  { 'x-request-id': '../%00' },
  { 'x-forwarded-for': 'not-an-ip, 999.1.1.1' },
  { 'x-api-key': '' },
);
