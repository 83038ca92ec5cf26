import { HttpError } from './http-error';

/** What a client search Postgres cannot parse gets (see isSearchTooComplex): the caller can shorten it. */
export function searchTooComplexError(): HttpError {
  return new HttpError(
    400,
    'SEARCH_TOO_COMPLEX',
    'The search has too many operators in a row (at most 32 negations): simplify it',
  );
}
