import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** Seals small secrets (TOTP keys) for storage: AES-256-GCM, a fresh 12-byte IV each time. */
export interface SecretBox {
  seal(plain: Buffer): Buffer;
  /** Throws when the box was sealed under another key or altered. */
  open(sealed: Buffer): Buffer;
}

/**
 * A box whose key is derived (HKDF-SHA256, its own label) from `masterSecret`, the API's JWT_SECRET:
 * a copy of the database alone does not reveal the TOTP secrets. Rotating JWT_SECRET makes the stored
 * secrets unreadable: the users concerned then sign in with a recovery code and enrol again.
 */
export function createSecretBox(masterSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', masterSecret, 'newsroom', 'newsroom totp secret box v1', 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]);
    },
  };
}
