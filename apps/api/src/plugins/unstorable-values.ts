import type { ErrorObject } from 'ajv';

/**
 * Values no schema keyword refuses but nothing downstream can take: a NUL character (Postgres text
 * cannot hold U+0000), a lone UTF-16 surrogate (JSON may escape one, "\ud800", but it is no Unicode
 * text: Postgres refuses it in jsonb, and UTF-8 would turn it into U+FFFD in a text column) and a non-finite number (Ajv coerces the query text "Infinity" or "1e309" to
 * Infinity after its type check and then skips minimum/maximum, which only test finite numbers).
 * Walked once per request part, whatever the schema, with an explicit stack: a deeply nested body
 * must not overflow the call stack.
 */
export function unstorableValueErrors(data: unknown): ErrorObject[] {
  if (!containsUnstorable(data)) return [];
  const errors: ErrorObject[] = [];
  const pending: { value: unknown; path: string }[] = [{ value: data, path: '' }];
  while (pending.length > 0) {
    const { value, path } = pending.pop() as { value: unknown; path: string };
    if (typeof value === 'string') {
      const problem = stringProblem(value);
      if (problem) errors.push(issue(path, problem.keyword, problem.message));
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) errors.push(issue(path, 'finiteNumber', 'must be a finite number'));
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--)
        pending.push({ value: value[index], path: `${path}/${index}` });
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value).reverse()) {
        const keyPath = `${path}/${escapePointer(key)}`;
        const problem = stringProblem(key);
        if (problem) errors.push(issue(keyPath, problem.keyword, `${problem.message} in its name`));
        pending.push({ value: (value as Record<string, unknown>)[key], path: keyPath });
      }
    }
  }
  return errors;
}

// In unicode mode a well-formed pair is one code point (not Cs): only a lone half matches.
const loneSurrogate = /\p{Cs}/u;

/** What is wrong with a string (or a property name), if anything. */
function stringProblem(text: string): { keyword: string; message: string } | undefined {
  if (text.includes('\u0000'))
    return { keyword: 'noNulCharacter', message: 'must not contain a NUL character' };
  if (loneSurrogate.test(text))
    return { keyword: 'wellFormedUnicode', message: 'must not contain a lone UTF-16 surrogate' };
  return undefined;
}

const unstorableString = (text: string) => text.includes('\u0000') || loneSurrogate.test(text);

/** The common case, answered without building paths: nothing to report. */
function containsUnstorable(data: unknown): boolean {
  if (typeof data === 'string') return unstorableString(data);
  if (typeof data === 'number') return !Number.isFinite(data);
  if (data === null || typeof data !== 'object') return false;
  const pending: unknown[] = [data];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (unstorableString(value)) return true;
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (unstorableString(key)) return true;
        pending.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return false;
}

/** JSON Pointer escaping of one path segment (RFC 6901), as Ajv writes instancePath. */
const escapePointer = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

const issue = (instancePath: string, keyword: string, message: string): ErrorObject => ({
  instancePath,
  schemaPath: '#',
  keyword,
  params: {},
  message,
});
