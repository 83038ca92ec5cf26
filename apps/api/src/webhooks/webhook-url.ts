import { isPublicHttpUrl } from '@newsroom/egress';
import { HttpError } from '../http-error';

/**
 * Checks a webhook target when it is registered: an absolute http(s) URL without credentials, whose host is
 * not a private, loopback, link-local or internal address or name (unless FEED_ALLOW_PRIVATE_ADDRESSES, the
 * development and test switch). Names are not resolved here: the worker's guarded agent checks the address
 * actually connected to on every attempt. Returns the URL normalised.
 */
export function checkWebhookUrl(value: string, allowPrivateAddresses: boolean): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new HttpError(400, 'INVALID_WEBHOOK_URL', 'The webhook URL is not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new HttpError(400, 'INVALID_WEBHOOK_URL', 'Only http and https webhook URLs are supported');
  }
  if (url.username !== '' || url.password !== '') {
    throw new HttpError(400, 'INVALID_WEBHOOK_URL', 'Webhook URLs may not carry a user name or password');
  }
  if (!allowPrivateAddresses && !isPublicHttpUrl(url.href)) {
    throw new HttpError(
      400,
      'WEBHOOK_URL_REFUSED',
      'The webhook URL points to a private, local or reserved network address',
    );
  }
  url.hash = '';
  return url.href;
}
