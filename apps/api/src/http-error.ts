/**
 * An HTTP failure raised by the API layer itself (auth, rate limits, unavailable dependencies),
 * with a stable code. Domain failures are DomainErrors instead; the error handler maps both.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}
