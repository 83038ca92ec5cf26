// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage } from '../src/lib/api-error';
import { fieldErrors } from '../src/lib/field-errors';
import { refusalOf } from '../src/lib/form/request-error';

// Where a refusal's messages go (src/lib/field-errors.ts, the form layer's default placement).

const refusal = (details: { path: string; message: string }[], code = 'VALIDATION_ERROR') =>
  new ApiError(400, code, 'Invalid body', details);

describe('placing a refusal on the fields', () => {
  it('names a missing property at that property', () => {
    const error = refusal([{ path: 'body', message: "must have required property 'email'" }]);
    expect(fieldErrors(error, ['email', 'password'] as const)).toEqual({ email: 'Required' });
  });

  it('keeps the first message of a field and places a nested path on its top field', () => {
    const error = refusal([
      { path: 'body/defaultTags/3', message: 'must NOT have more than 60 characters' },
      { path: 'body/defaultTags', message: 'must NOT have more than 30 items' },
    ]);
    expect(fieldErrors(error, ['defaultTags'] as const)).toEqual({
      defaultTags: 'Must be at most 60 characters',
    });
  });

  it('leaves out a field the form does not have', () => {
    const error = refusal([{ path: 'body/colour', message: 'unknown property "colour"' }]);
    expect(fieldErrors(error, ['name'] as const)).toEqual({});
  });

  it("puts a code's message on the field it names, unless that field has its own message", () => {
    const taken = new ApiError(409, 'EMAIL_TAKEN', 'This e-mail address is already used by another login');
    expect(fieldErrors(taken, ['email'] as const, { EMAIL_TAKEN: 'email' })).toEqual({
      email: 'This e-mail address is already used by another login',
    });
    const both = refusal(
      [{ path: 'body/slug', message: 'must NOT have fewer than 1 characters' }],
      'SITE_SLUG_TAKEN',
    );
    expect(fieldErrors(both, ['slug'] as const, { SITE_SLUG_TAKEN: 'slug' })).toEqual({ slug: 'Required' });
  });

  it('places nothing for what is not an API error', () => {
    expect(fieldErrors(new Error('offline'), ['name'] as const)).toEqual({});
    expect(fieldErrors(undefined, ['name'] as const)).toEqual({});
  });
});

describe("the browser's refusal", () => {
  it('is the 400 the API would send, said by field in words as one message', () => {
    const error = refusalOf('createSite', { name: '', slug: 'ok', domain: null });
    expect(error).toBeInstanceOf(ApiError);
    expect(error?.status).toBe(400);
    expect(error?.message).toBe(
      'Invalid body: body/name must NOT have fewer than 1 characters; body/name must match pattern "\\S"',
    );
    expect(errorMessage(error)).toMatch(/^Name: required\./);
    expect(fieldErrors(error, ['name', 'slug'] as const)).toEqual({ name: 'Required' });
  });

  it('is nothing for a body the API takes', () => {
    expect(refusalOf('createSite', { name: 'Metro', slug: 'metro', domain: 'metro.example.com' })).toBeNull();
    expect(
      refusalOf('editSite', { allowedOrigins: [], publicBaseUrl: null, articleUrlTemplate: null }),
    ).toBeNull();
  });
});
