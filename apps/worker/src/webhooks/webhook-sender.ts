import { type AddressPolicy, createGuardedAgent, isPublicAddress, parseRetryAfter } from '@newsroom/egress';
import { type Dispatcher, request } from 'undici';

/** What one POST to a receiver came to. */
export type WebhookResponse =
  | {
      answered: true;
      statusCode: number;
      retryAfterMs: number | undefined;
      durationMs: number;
      /** The answer's first 1 KB as text (never half a UTF-8 character). */
      excerpt: string;
    }
  | {
      answered: false;
      /** TIMEOUT and NETWORK are worth retrying; REFUSED_ADDRESS and INVALID_URL are not. */
      code: 'TIMEOUT' | 'NETWORK' | 'REFUSED_ADDRESS' | 'INVALID_URL';
      error: string;
      durationMs: number;
    };

export interface WebhookSender {
  /** POSTs `body` with `headers`; never throws. */
  send(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse>;
  close(): Promise<void>;
}

export const webhookUserAgent = 'NewsroomWebhooks/1.0 (+https://github.com/newsroom)';

const excerptBytes = 1024;
const drainBytes = 64 * 1024;

/**
 * The answer's first 1 KB for the delivery log, decoded as UTF-8 without a cut character (and without NULs,
 * which Postgres text refuses). The rest is read and dropped up to 64 KB, so the connection is reused; a
 * longer answer is cut (the stream destroyed). The request's deadline aborts the body too.
 */
async function readExcerpt(body: Dispatcher.ResponseData['body']): Promise<string> {
  const decoder = new TextDecoder();
  let excerpt = '';
  let read = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (read < excerptBytes) {
        // stream: a character cut at the 1 KB mark stays in the decoder and is never written.
        excerpt += decoder.decode(chunk.subarray(0, excerptBytes - read), { stream: true });
      }
      read += chunk.length;
      if (read > drainBytes) break;
    }
  } catch {
    // A body cut short or past the deadline: keep what arrived.
  }
  return excerpt.replaceAll('\u0000', '');
}

/**
 * Sends webhooks through @newsroom/egress's guarded agent: every connection is checked against the address policy
 * at connect time (private, loopback, link-local and metadata addresses refused unless
 * `allowPrivateAddresses`), redirects are not followed, and the whole attempt (connect, headers, body) is
 * cut after `timeoutMs`.
 */
export function createWebhookSender(options: {
  timeoutMs: number;
  allowPrivateAddresses: boolean;
  /** Replaces the policy (tests). */
  isAllowedAddress?: AddressPolicy;
}): WebhookSender {
  const agent = createGuardedAgent({
    isAllowedAddress:
      options.isAllowedAddress ?? (options.allowPrivateAddresses ? () => true : isPublicAddress),
    connectTimeoutMs: options.timeoutMs,
    maxResponseBytes: 1024 * 1024,
  });
  return {
    async send(url, headers, body) {
      const started = performance.now();
      const elapsed = () => performance.now() - started;
      const timeout = AbortSignal.timeout(options.timeoutMs);
      let parsed: URL;
      try {
        parsed = new URL(url);
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http(s)');
      } catch {
        return {
          answered: false,
          code: 'INVALID_URL',
          error: 'the URL is not a valid http(s) URL',
          durationMs: 0,
        };
      }
      try {
        const response = await request(parsed, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': webhookUserAgent, ...headers },
          body,
          dispatcher: agent,
          signal: timeout,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
        const excerpt = await readExcerpt(response.body);
        const retryAfter = response.headers['retry-after'];
        return {
          answered: true,
          statusCode: response.statusCode,
          retryAfterMs: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter),
          durationMs: elapsed(),
          excerpt,
        };
      } catch (error) {
        const durationMs = elapsed();
        if (timeout.aborted) {
          return {
            answered: false,
            code: 'TIMEOUT',
            error: `no answer within ${options.timeoutMs} ms`,
            durationMs,
          };
        }
        const refused = [error, (error as { cause?: unknown }).cause].some(
          (e) => (e as { code?: unknown } | undefined)?.code === 'REFUSED_ADDRESS',
        );
        if (refused) {
          return {
            answered: false,
            code: 'REFUSED_ADDRESS',
            error: 'the URL points to a private, local or reserved network address',
            durationMs,
          };
        }
        const code = (error as { code?: unknown }).code;
        const cause = (error as { cause?: { code?: unknown } }).cause?.code;
        const detail = [code, cause].filter((part) => typeof part === 'string').join(' / ');
        return {
          answered: false,
          code: 'NETWORK',
          error: `${detail ? `${detail}: ` : ''}${(error as Error).message}`.slice(0, 300),
          durationMs,
        };
      }
    },
    close: () => agent.close(),
  };
}
