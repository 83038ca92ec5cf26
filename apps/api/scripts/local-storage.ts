import { mkdir } from 'node:fs/promises';
import S3rver from '@20minutes/s3rver';
import type { ApiConfig, StorageConfig } from '@newsroom/config';

// Uploads out of the box for `pnpm start` (scripts/start.ts): with no STORAGE_* set, outside production, an
// embedded S3-compatible store (the signature-checking s3rver the upload tests use) on loopback, with the CORS
// rule a browser upload from the dashboard needs. Development only: one process, files on the local disk.

/** What the start script does about uploads: the configured store, the embedded one, or none (503). */
export type StorageChoice = 'configured' | 'embedded' | 'none';

export function chooseStorage(config: Pick<ApiConfig, 'env' | 'storage'>): StorageChoice {
  if (config.storage) return 'configured';
  // Production never gets a store on the local disk: sign-storage answers 503 naming the settings instead.
  return config.env === 'production' ? 'none' : 'embedded';
}

export interface LocalStorageOptions {
  /** Where the files live (kept across restarts, so stored image URLs keep working). */
  directory: string;
  /** 0: any free port. */
  port: number;
  /** Pages allowed to PUT and GET from the browser (the dashboard's origins). */
  dashboardOrigins: string[];
  bucket?: string;
}

export interface LocalStorage {
  storage: StorageConfig;
  address: string;
  port: number;
  close(): Promise<void>;
}

/** Loopback only: the store checks signatures, but its files and credentials are for this machine alone. */
const loopback = '127.0.0.1';

/** Starts the store with one bucket (created directly: s3rver fails the SDK's header-signed CreateBucket). */
export async function startLocalStorage(options: LocalStorageOptions): Promise<LocalStorage> {
  const bucket = options.bucket ?? 'newsroom-media';
  await mkdir(options.directory, { recursive: true });
  const server = new S3rver({
    address: loopback,
    port: options.port,
    silent: true,
    directory: options.directory,
    configureBuckets: [
      { name: bucket, configs: options.dashboardOrigins.length ? [corsRule(options.dashboardOrigins)] : [] },
    ],
  });
  const { address, port } = await server.run();
  return {
    address,
    port,
    storage: {
      // s3rver's built-in credentials.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      region: 'us-east-1',
      bucket,
      endpoint: `http://${loopback}:${port}`,
      publicUrl: undefined,
    },
    close: () => server.close(),
  };
}

/** Lets pages of `origins` (wildcards allowed: `http://127.0.0.1:*`) PUT files with a Content-Type and GET them. */
export function corsRule(origins: string[]): string {
  const allowed = origins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`).join('');
  return `<CORSConfiguration><CORSRule>${allowed}<AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader><MaxAgeSeconds>60</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}

/** The STORAGE_* variables that point the API process at `storage`. */
export function storageEnvironment(storage: StorageConfig): Record<string, string> {
  return {
    STORAGE_ACCESS_KEY_ID: storage.accessKeyId,
    STORAGE_SECRET_ACCESS_KEY: storage.secretAccessKey,
    STORAGE_REGION: storage.region,
    STORAGE_BUCKET: storage.bucket,
    ...(storage.endpoint && { STORAGE_ENDPOINT: storage.endpoint }),
    ...(storage.publicUrl && { STORAGE_PUBLIC_URL: storage.publicUrl }),
  };
}
