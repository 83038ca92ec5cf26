import type { StorageConfig } from '@newsroom/config';
import { describe, expect, it } from 'vitest';
import { createUploadSigner, publicBaseUrl, uploadKey } from '../src/storage/upload-signer';

const aws: StorageConfig = {
  accessKeyId: 'AKIAEXAMPLE',
  secretAccessKey: 'secret',
  region: 'eu-west-3',
  bucket: 'newsroom-media',
  endpoint: undefined,
  publicUrl: undefined,
};

describe('public URL of uploads', () => {
  it('uses STORAGE_PUBLIC_URL when set, without doubling slashes', () => {
    expect(publicBaseUrl({ ...aws, publicUrl: 'https://cdn.example.com/media/' })).toBe(
      'https://cdn.example.com/media',
    );
  });

  it('falls back to the endpoint with the bucket in the path', () => {
    expect(publicBaseUrl({ ...aws, endpoint: 'http://127.0.0.1:9000/' })).toBe(
      'http://127.0.0.1:9000/newsroom-media',
    );
  });

  it("falls back to AWS' virtual-hosted bucket URL", () => {
    expect(publicBaseUrl(aws)).toBe('https://newsroom-media.s3.eu-west-3.amazonaws.com');
  });
});

describe('upload keys', () => {
  it('are uploads/YYYY/MM/<uuid>.<extension of the type>, in UTC', () => {
    const key = uploadKey('image/webp', new Date('2026-12-31T23:30:00-05:00'));
    expect(key).toMatch(
      /^uploads\/2027\/01\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.webp$/,
    );
  });
});

describe('signing against AWS itself (offline: signing makes no request)', () => {
  it('signs a virtual-hosted URL with the credential scope of the region', async () => {
    const signer = createUploadSigner(aws, { now: () => new Date('2026-11-22T10:00:00Z') });
    const { signedRequest, url, key } = await signer.signUpload('image/jpeg');
    const signed = new URL(signedRequest);
    expect(signed.host).toBe('newsroom-media.s3.eu-west-3.amazonaws.com');
    expect(signed.pathname).toBe(`/${key}`);
    expect(signed.searchParams.get('X-Amz-Credential')).toBe(
      'AKIAEXAMPLE/20261122/eu-west-3/s3/aws4_request',
    );
    expect(signed.searchParams.get('X-Amz-Date')).toBe('20261122T100000Z');
    expect(url).toBe(`https://newsroom-media.s3.eu-west-3.amazonaws.com/${key}`);
  });
});
