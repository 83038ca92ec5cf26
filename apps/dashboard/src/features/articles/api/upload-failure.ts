import { ApiError } from '../../../lib/api-error';

/**
 * What the browser learned from a PUT to storage that failed. A refusal carries the storage's HTTP status
 * and body (S3's XML error). A network error carries no status at all: a browser reports a CORS refusal
 * and a lost connection the same way, so the uploader also says whether the browser is online and whether
 * the storage answers a plain request (`storageReachable`): if it does, the browser blocked the upload.
 */
export type UploadFailure =
  | { kind: 'refused'; status: number; body: string }
  | {
      kind: 'network';
      online: boolean;
      storageReachable: boolean;
      storageOrigin: string;
      pageOrigin: string;
    };

/** The S3 error code and message of an error body (`<Error><Code>…</Code><Message>…</Message></Error>`). */
function s3ErrorOf(body: string): { code?: string; message?: string } {
  const code = /<Code>([^<]{1,100})<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]{1,300})<\/Message>/.exec(body)?.[1];
  return { code, message };
}

function refusal({ status, body }: { status: number; body: string }): ApiError {
  const { code, message = '' } = s3ErrorOf(body);
  const said = `HTTP ${status}${code ? ` ${code}` : ''}`;
  const refused = (text: string) => new ApiError(status, 'UPLOAD_REFUSED', text);
  if (/expired/i.test(message) || code === 'ExpiredToken') {
    return refused(
      `The storage refused the upload (${said}): the upload link expired before the file arrived (links last 5 minutes). Try again.`,
    );
  }
  if (code === 'SignatureDoesNotMatch') {
    return refused(
      `The storage refused the upload's signature (${said}): the server's STORAGE_* keys, region or bucket may not match the storage, or the request was changed on the way. Try again; if it happens again, tell an administrator.`,
    );
  }
  if (status === 413 || code === 'EntityTooLarge') {
    return refused(`The storage refused the file as too large (${said}). Choose a smaller image.`);
  }
  if (code === 'AccessDenied' || code === 'InvalidAccessKeyId') {
    return refused(
      `The storage refused the upload (${said}): the server's storage keys may lack permission to write to the bucket. Tell an administrator.`,
    );
  }
  return refused(`The storage refused the file (${said}). Try again in a moment.`);
}

/** The error the editor shows for a failed upload to storage, naming the likely cause. */
export function describeUploadFailure(failure: UploadFailure): ApiError {
  if (failure.kind === 'refused') return refusal(failure);
  if (!failure.online) {
    return new ApiError(
      0,
      'UPLOAD_CONNECTION_LOST',
      'The connection was lost: the file was not sent. Check your connection and try again.',
    );
  }
  if (failure.storageReachable) {
    return new ApiError(
      0,
      'UPLOAD_BLOCKED',
      `The browser blocked the upload to ${failure.storageOrigin}: the storage answers, but its CORS rule does not let this site (${failure.pageOrigin}) PUT a file with a Content-Type. An administrator must allow it on the bucket (docs/uploads.md).`,
    );
  }
  return new ApiError(
    0,
    'UPLOAD_CONNECTION_LOST',
    `The browser could not reach the storage at ${failure.storageOrigin}: the connection was lost or the storage is down. Check your connection and try again.`,
  );
}
