import type { StorageConfig } from '@newsroom/config';
import { type ImagePolicy, sanitizeBody } from '@newsroom/html';
import { publicBaseUrl } from '../storage/upload-signer';

/**
 * Article bodies written through the API get the allowlist of imported feed items (packages/html
 * sanitizeBody): child sites render this HTML, so neither an administrator's stolen token nor a forged
 * request may store a script. Applied on write, here, by every route that takes a body (create, edit).
 * There is no base URL: relative links and images are dropped (editors insert absolute URLs). Pictures on
 * private hosts are dropped too, except those in the service's own upload storage (bodyImagePolicy).
 */
export function withSanitisedBody<T extends { body?: string | undefined }>(
  fields: T,
  images: ImagePolicy,
): T {
  if (fields.body === undefined) return fields;
  return { ...fields, body: sanitizeBody(fields.body, null, images) };
}

/** Uploads land under the storage's public URL, which may be loopback (the development store): keep them. */
export function bodyImagePolicy(storage: StorageConfig | undefined): ImagePolicy {
  return { trustedImagePrefixes: storage ? [publicBaseUrl(storage)] : [] };
}
