import { FeedError } from './feed-error';

/**
 * Parses a feed URL and accepts only http and https without embedded credentials
 * (credentials would be logged and shown in previews).
 */
export function parseFeedUrl(value: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch (error) {
    throw new FeedError('INVALID_URL', 'The feed URL is not a valid URL.', { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FeedError('INVALID_URL', 'Only http and https feed URLs are supported.');
  }
  if (url.username !== '' || url.password !== '') {
    throw new FeedError('INVALID_URL', 'Feed URLs with embedded user names or passwords are not supported.');
  }
  url.hash = '';
  return url;
}
