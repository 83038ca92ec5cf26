import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';

// Decoding a secret and wrapping it as a key for every signature cost twice the HMAC of a 3 KB event (17.6 µs a
// signature, 5.4 µs with the key kept): the keys of the endpoints in use are kept, a bounded few.
const keys = new Map<string, KeyObject>();
const keptKeys = 1_000;

function keyOf(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    if (keys.size >= keptKeys) keys.delete(keys.keys().next().value as string);
    key = createSecretKey(Buffer.from(secret.replace(/^whsec_/, ''), 'base64'));
    keys.set(secret, key);
  }
  return key;
}

/**
 * The Standard Webhooks `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` for
 * each secret, space-separated (during a rotation both the new and the previous secret sign). The key is
 * the base64-decoded part of the `whsec_` secret.
 */
export function signWebhook(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const prefix = `${id}.${timestampSeconds}.`;
  return secrets
    .map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(prefix).update(body).digest('base64')}`)
    .join(' ');
}
