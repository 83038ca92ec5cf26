import { randomUUID } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { StorageConfig } from '@newsroom/config';

/** The spec's lifetime of a signed upload URL: 5 minutes. */
export const uploadUrlLifetimeSeconds = 300;

/** Image media types an upload may have, with the file extension its object key gets. */
export const imageExtensions = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
} as const;
export type ImageType = keyof typeof imageExtensions;

export interface SignedUpload {
  /** Where the client PUTs the file, with exactly this Content-Type, within the lifetime. */
  signedRequest: string;
  /** Where the stored file is publicly served. */
  url: string;
  key: string;
}

export interface UploadSigner {
  signUpload(fileType: ImageType): Promise<SignedUpload>;
}

/** `uploads/YYYY/MM/<uuid>.<ext>`: generated, never from user input, so no path can be chosen or overwritten. */
export function uploadKey(fileType: ImageType, at: Date): string {
  const month = String(at.getUTCMonth() + 1).padStart(2, '0');
  return `uploads/${at.getUTCFullYear()}/${month}/${randomUUID()}.${imageExtensions[fileType]}`;
}

/** STORAGE_PUBLIC_URL if set, else the endpoint's path-style bucket URL, else AWS' virtual-hosted bucket URL. */
export function publicBaseUrl(config: StorageConfig): string {
  const trim = (url: string) => url.replace(/\/+$/, '');
  if (config.publicUrl) return trim(config.publicUrl);
  if (config.endpoint) return `${trim(config.endpoint)}/${config.bucket}`;
  return `https://${config.bucket}.s3.${config.region}.amazonaws.com`;
}

/**
 * Origins a browser talks to for uploads: where signed PUTs go (the endpoint, or AWS' bucket host) and
 * where stored files are read from. The dashboard's Content-Security-Policy allows exactly these.
 */
export function uploadOrigins(config: StorageConfig): { upload: string[]; public: string[] } {
  const upload = config.endpoint
    ? new URL(config.endpoint).origin
    : `https://${config.bucket}.s3.${config.region}.amazonaws.com`;
  return { upload: [upload], public: [new URL(publicBaseUrl(config)).origin] };
}

/**
 * Signs short-lived PUT URLs for image uploads straight to S3-compatible storage: the API never sees file data.
 * `now` exists for tests (a URL signed in the past is already expired); production uses the clock.
 */
export function createUploadSigner(config: StorageConfig, options: { now?: () => Date } = {}): UploadSigner {
  const now = options.now ?? (() => new Date());
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    // S3-compatible stores (MinIO, R2, ...) address buckets by path, not by subdomain.
    forcePathStyle: config.endpoint !== undefined,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // The default (WHEN_SUPPORTED) signs a CRC32 of an empty body into the URL, and real uploads then fail.
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  const publicBase = publicBaseUrl(config);

  return {
    async signUpload(fileType) {
      const signingDate = now();
      const key = uploadKey(fileType, signingDate);
      const command = new PutObjectCommand({ Bucket: config.bucket, Key: key, ContentType: fileType });
      const signedRequest = await getSignedUrl(client, command, {
        expiresIn: uploadUrlLifetimeSeconds,
        signingDate,
        // The presigner leaves Content-Type unsigned by default; signing it makes the store refuse other types.
        signableHeaders: new Set(['content-type']),
      });
      return { signedRequest, url: `${publicBase}/${key}`, key };
    },
  };
}
