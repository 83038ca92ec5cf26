import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';
import type { StorageConfig } from '@newsroom/config';

/**
 * A real S3-compatible server on loopback (a random port, a temporary directory) that verifies
 * SigV4 signatures, with one empty bucket. Credentials are s3rver's built-in S3RVER/S3RVER.
 */
export async function startLocalS3(bucket = 'newsroom-media', options: { corsOrigin?: string } = {}) {
  const directory = await mkdtemp(join(tmpdir(), 'newsroom-s3-'));
  // Buckets are created directly: s3rver fails the SDK's header-signed CreateBucket.
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: options.corsOrigin ? [corsConfig(options.corsOrigin)] : [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const storage: StorageConfig = {
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    region: 'us-east-1',
    bucket,
    endpoint,
    publicUrl: undefined,
  };
  return {
    endpoint,
    storage,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** Lets a browser page of `origin` (wildcards allowed: `http://127.0.0.1:*`) PUT and GET files. */
function corsConfig(origin: string): string {
  return `<CORSConfiguration><CORSRule><AllowedOrigin>${origin}</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedHeader>*</AllowedHeader><MaxAgeSeconds>60</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}
