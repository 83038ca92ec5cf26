/** Why an outgoing request was refused or its answer not read; stable, safe to branch on. */
export type EgressErrorCode =
  /** The address connected to (or named as a literal) is not allowed by the address policy. */
  | 'REFUSED_ADDRESS'
  /** The body went past the byte cap (counted after decompression). */
  | 'TOO_LARGE'
  /** The Content-Encoding names a coding we do not decode. */
  | 'UNSUPPORTED_ENCODING'
  /** The compressed body could not be decompressed (its zlib or brotli error is the cause). */
  | 'CORRUPT_ENCODING';

/**
 * The one error type this package throws. Its messages say what happened without naming the address or the
 * caller's purpose; callers that show errors to people (the feed fetcher) put them in their own words by `code`.
 */
export class EgressError extends Error {
  override readonly name = 'EgressError';
  readonly code: EgressErrorCode;

  constructor(code: EgressErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

/**
 * The first error of class `type` in an error's cause chain, five links deep at most (undici may wrap errors raised
 * inside its connector, so a refusal can arrive as the cause of a connection error).
 */
export function findInCauses<T extends Error>(
  error: unknown,
  type: abstract new (...args: never[]) => T,
): T | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof type) return current;
    current = current.cause;
  }
  return undefined;
}

/** Finds an EgressError in an error's cause chain. */
export function findEgressError(error: unknown): EgressError | undefined {
  return findInCauses(error, EgressError);
}

export function refusedAddressError(): EgressError {
  return new EgressError(
    'REFUSED_ADDRESS',
    'The address points to a private, local or reserved network and cannot be reached.',
  );
}

export function tooLargeError(maxBytes: number): EgressError {
  const mebibytes = Math.round((maxBytes / (1024 * 1024)) * 10) / 10;
  return new EgressError('TOO_LARGE', `The response is larger than the ${mebibytes} MiB limit.`);
}
