// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage } from '../src/lib/api-error';
import { fieldErrors, humanizeIssue } from '../src/lib/field-errors';

// The API's validation messages are Ajv's ("must NOT have fewer than 1 characters"); people read these.

describe('validation messages in words', () => {
  it.each([
    ['must NOT have fewer than 1 characters', 'title', 'Required'],
    ['must NOT have fewer than 12 characters', 'password', 'Must be at least 12 characters'],
    ['must NOT have more than 1 characters', 'x', 'Must be at most 1 character'],
    ['must NOT have more than 300 characters', 'title', 'Must be at most 300 characters'],
    ['must NOT have fewer than 1 items', 'events', 'Choose at least one'],
    ['must NOT have more than 30 items', 'defaultTags', 'At most 30'],
    ['must be >= 1', 'page', 'Must be at least 1'],
    ['must be <= 100', 'limit', 'Must be at most 100'],
    ['must be integer', 'limit', 'Must be a whole number'],
    ['must match format "uri"', 'thumbnail', 'Enter a full address starting with http:// or https://'],
    ['must match format "uuid"', 'id', 'Is not a valid identifier'],
    ['must be equal to one of the allowed values', 'status', 'Choose one of the offered values'],
    ['must not contain a NUL character', 'title', 'Contains a character that cannot be stored'],
    ["must have required property 'title'", 'title', 'Required'],
    ['must match pattern "\\S"', 'name', 'Required'],
    [
      'must match pattern "^[a-z0-9]+(?:-[a-z0-9]+)*$"',
      'slug',
      'Use lower-case letters, digits and single dashes, such as metro-news',
    ],
    ['must be string', 'title', 'Has the wrong type of value'],
  ])('%s -> %s', (message, field, expected) => {
    expect(humanizeIssue(message, field)).toBe(expected);
  });

  it('puts each field’s message next to it', () => {
    const error = new ApiError(
      400,
      'VALIDATION_ERROR',
      'Invalid body: body/title must NOT have fewer than 1 characters',
      [{ path: 'body/title', message: 'must NOT have fewer than 1 characters' }],
    );
    expect(fieldErrors(error, ['title'] as const)).toEqual({ title: 'Required' });
  });

  it('words a validation error shown as one message by field, without the validator’s text', () => {
    const error = new ApiError(
      400,
      'VALIDATION_ERROR',
      'Invalid body: body/name must NOT have fewer than 1 characters; body/feedUrl must match format "uri"',
      [
        { path: 'body/name', message: 'must NOT have fewer than 1 characters' },
        { path: 'body/feedUrl', message: 'must match format "uri"' },
      ],
    );
    expect(errorMessage(error)).toBe(
      'Name: required. Feed URL: enter a full address starting with http:// or https://.',
    );
  });

  it('keeps the message of any other error', () => {
    expect(errorMessage(new ApiError(409, 'SLUG_TAKEN', 'Another article already has this slug'))).toBe(
      'Another article already has this slug',
    );
  });
});
