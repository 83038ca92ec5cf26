import { describe, expect, it } from 'vitest';
import { describeUploadFailure } from '../src/features/articles/api/upload-failure';

// What the editor says when the browser's PUT to storage fails: a refusal (an HTTP status from the storage,
// with the S3 error code of its XML body) is told from a lost connection and from a browser block (CORS),
// and each names its likely cause.

const s3Error = (code: string, message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

describe('describeUploadFailure', () => {
  it.each([
    [
      'a signature the storage does not accept',
      {
        status: 403,
        body: s3Error('SignatureDoesNotMatch', 'The request signature we calculated does not match'),
      },
      'UPLOAD_REFUSED',
      /refused the upload's signature \(HTTP 403 SignatureDoesNotMatch\).*STORAGE_\*/,
    ],
    [
      'an expired upload link',
      { status: 403, body: s3Error('AccessDenied', 'Request has expired') },
      'UPLOAD_REFUSED',
      /link expired.*5 minutes/,
    ],
    [
      'a file over the storage limit',
      {
        status: 400,
        body: s3Error('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size'),
      },
      'UPLOAD_REFUSED',
      /too large \(HTTP 400 EntityTooLarge\)/,
    ],
    ['a 413 without a body', { status: 413, body: '' }, 'UPLOAD_REFUSED', /too large \(HTTP 413\)/],
    [
      'missing write permission',
      { status: 403, body: s3Error('AccessDenied', 'Access Denied') },
      'UPLOAD_REFUSED',
      /HTTP 403 AccessDenied.*permission/,
    ],
    ['a storage failure', { status: 503, body: '' }, 'UPLOAD_REFUSED', /refused the file \(HTTP 503\)/],
  ])('names %s as a refusal', (_name, response, code, message) => {
    const error = describeUploadFailure({ kind: 'refused', ...response });
    expect(error.code).toBe(code);
    expect(error.status).toBe(response.status);
    expect(error.message).toMatch(message);
  });

  const network = {
    kind: 'network' as const,
    storageOrigin: 'http://127.0.0.1:3001',
    pageOrigin: 'http://127.0.0.1:3000',
  };

  it('names a lost connection when the browser is offline', () => {
    const error = describeUploadFailure({ ...network, online: false, storageReachable: false });
    expect(error.code).toBe('UPLOAD_CONNECTION_LOST');
    expect(error.message).toMatch(/connection was lost.*not sent/);
  });

  it('names a browser block (CORS) when the storage answers otherwise', () => {
    const error = describeUploadFailure({ ...network, online: true, storageReachable: true });
    expect(error.code).toBe('UPLOAD_BLOCKED');
    expect(error.message).toMatch(
      /browser blocked the upload to http:\/\/127\.0\.0\.1:3001.*CORS.*http:\/\/127\.0\.0\.1:3000.*PUT.*Content-Type/,
    );
  });

  it('names an unreachable storage when it answers nothing', () => {
    const error = describeUploadFailure({ ...network, online: true, storageReachable: false });
    expect(error.code).toBe('UPLOAD_CONNECTION_LOST');
    expect(error.message).toMatch(/could not reach the storage at http:\/\/127\.0\.0\.1:3001/);
  });
});
