import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** RFC 6238 with the parameters every authenticator app supports: SHA-1, 6 digits, 30-second steps. */
export const totpPeriodSeconds = 30;
export const totpDigits = 6;
/** Codes of the previous and the next step are accepted too (clock drift between phone and server). */
export const totpWindowSteps = 1;
/** 160 bits, the RFC 4226 recommendation for HMAC-SHA-1. */
const secretBytes = 20;

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 without padding: the form authenticator apps take a key in. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (case-insensitive, spaces and padding ignored); throws on any other character. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    const index = base32Alphabet.indexOf(char);
    if (index < 0) throw new Error(`not a base32 character: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

export const newTotpSecret = (): Buffer => randomBytes(secretBytes);

/** The time step of an instant (RFC 6238: floor(unix seconds / 30)). */
export const totpStepAt = (now: Date): number => Math.floor(now.getTime() / 1000 / totpPeriodSeconds);

/** RFC 4226 HOTP: the code of one counter value, zero-padded to `digits`. */
export function hotp(secret: Uint8Array, counter: number, digits = totpDigits): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The TOTP code of `secret` at `now`. */
export const totpAt = (secret: Uint8Array, now: Date): string => hotp(secret, totpStepAt(now));

/**
 * The time step whose code `code` is, within the window around `now`, or undefined. Every candidate is
 * compared (in constant time), so the answer's timing does not tell which step matched.
 */
export function matchTotpStep(secret: Uint8Array, code: string, now: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const current = totpStepAt(now);
  let matched: number | undefined;
  for (let step = current - totpWindowSteps; step <= current + totpWindowSteps; step += 1) {
    if (timingSafeEqual(Buffer.from(hotp(secret, step)), Buffer.from(code)) && matched === undefined) {
      matched = step;
    }
  }
  return matched;
}

/** The key URI authenticator apps read from a QR code (Google Authenticator's Key Uri Format). */
export function otpauthUri(secret: Uint8Array, account: string, issuer: string): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const params = new URLSearchParams({
    secret: base32Encode(secret),
    issuer,
    algorithm: 'SHA1',
    digits: String(totpDigits),
    period: String(totpPeriodSeconds),
  });
  return `otpauth://totp/${label}?${params.toString()}`;
}
