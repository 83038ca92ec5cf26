import type { ErrorObject } from 'ajv';

/**
 * Values no schema keyword refuses but nothing downstream can take: a NUL character (Postgres text
 * cannot hold U+0000) and a non-finite number (Ajv coerces the query text "Infinity" or "1e309" to
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
      if (value.includes('\u0000'))
        errors.push(issue(path, 'noNulCharacter', 'must not contain a NUL character'));
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) errors.push(issue(path, 'finiteNumber', 'must be a finite number'));
    } else if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--)
        pending.push({ value: value[index], path: `${path}/${index}` });
    } else if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value).reverse()) {
        const keyPath = `${path}/${escapePointer(key)}`;
        if (key.includes('\u0000'))
          errors.push(issue(keyPath, 'noNulCharacter', 'must not contain a NUL character in its name'));
        pending.push({ value: (value as Record<string, unknown>)[key], path: keyPath });
      }
    }
  }
  return errors;
}

/** The common case, answered without building paths: nothing to report. */
function containsUnstorable(data: unknown): boolean {
  if (typeof data === 'string') return data.includes('\u0000');
  if (typeof data === 'number') return !Number.isFinite(data);
  if (data === null || typeof data !== 'object') return false;
  const pending: unknown[] = [data];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return true;
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (key.includes('\u0000')) return true;
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
