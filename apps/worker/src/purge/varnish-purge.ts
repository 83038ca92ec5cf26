import { type PurgeProvider, sendPurgeRequest } from './purge-provider';

/**
 * Varnish with the xkey vmod (Debian's varnish-modules): `PURGE /` with the keys in `xkey-purge`, which the
 * VCL hands to `xkey.purge()` (docs/cdn.md has the VCL). Every listed server is purged; one failing fails the
 * batch (it is sent again to all: purging twice is harmless). 100 keys of ~45 bytes stay well under Varnish's
 * 8 KB request-header limit (http_req_hdr_len).
 */
export function varnishPurgeProvider(urls: readonly string[], timeoutMs: number): PurgeProvider {
  return {
    name: 'varnish',
    maxKeysPerRequest: 100,
    requestsPerSecond: null,
    async purge(keys) {
      await Promise.all(
        urls.map((base) =>
          sendPurgeRequest(
            'varnish',
            new URL('/', base).toString(),
            { method: 'PURGE', headers: { 'xkey-purge': keys.join(' ') } },
            timeoutMs,
          ),
        ),
      );
    },
  };
}
