import { describe, expect, it } from 'vitest';
import { unstorableValueErrors } from '../src/plugins/unstorable-values';

const paths = (data: unknown) =>
  unstorableValueErrors(data).map((error) => [error.instancePath, error.message]);

describe('unstorableValueErrors', () => {
  it('finds nothing in ordinary values', () => {
    expect(paths({ title: 'ok', tags: ['a', 'b'], page: 2, nested: { at: null, yes: true } })).toEqual([]);
    expect(paths('text')).toEqual([]);
    expect(paths(null)).toEqual([]);
  });

  it('names every NUL character and non-finite number by its JSON pointer', () => {
    expect(
      paths({
        title: 'a\u0000',
        tags: ['ok', '\u0000'],
        page: Number.POSITIVE_INFINITY,
        'a/b~': { x: Number.NaN },
      }),
    ).toEqual([
      ['/title', 'must not contain a NUL character'],
      ['/tags/1', 'must not contain a NUL character'],
      ['/page', 'must be a finite number'],
      ['/a~1b~0/x', 'must be a finite number'],
    ]);
  });

  it('names a lone UTF-16 surrogate, in a value or a property name, and accepts a pair', () => {
    expect(paths({ a: ['x\ud800'], '\udc00': 1, emoji: '\ud83d\udcf0' })).toEqual([
      ['/\udc00', 'must not contain a lone UTF-16 surrogate in its name'],
      ['/a/0', 'must not contain a lone UTF-16 surrogate'],
    ]);
  });

  it('names a NUL character in a property name', () => {
    expect(paths({ 'a\u0000': 1 })).toEqual([['/a\u0000', 'must not contain a NUL character in its name']]);
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = '\u0000';
    for (let depth = 0; depth < 200_000; depth++) deep = [deep];
    expect(unstorableValueErrors(deep)).toHaveLength(1);
  });
});
