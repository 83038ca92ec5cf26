import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalStorage } from '../../scripts/local-storage';

/**
 * A real S3-compatible server on loopback (a random port, a temporary directory) that verifies
 * SigV4 signatures, with one empty bucket: the embedded store of `pnpm start`. Credentials are
 * s3rver's built-in S3RVER/S3RVER. `corsOrigin` lets pages of that origin PUT and GET (wildcards allowed).
 */
export async function startLocalS3(bucket = 'newsroom-media', options: { corsOrigin?: string } = {}) {
  const directory = await mkdtemp(join(tmpdir(), 'newsroom-s3-'));
  const local = await startLocalStorage({
    directory,
    port: 0,
    bucket,
    dashboardOrigins: options.corsOrigin ? [options.corsOrigin] : [],
  });
  return {
    endpoint: local.storage.endpoint as string,
    storage: local.storage,
    async close() {
      await local.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
