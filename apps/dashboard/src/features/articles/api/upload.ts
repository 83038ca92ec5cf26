import { signUpload, type UploadableType, uploadableTypes } from '../../../api/uploads';
import { ApiError } from '../../../lib/api-error';
import { describeUploadFailure } from './upload-failure';

/** An upload may take this long at most (the signed address lives 5 minutes). */
export const uploadTimeoutMs = 4 * 60_000;

export function isUploadable(file: File): file is File & { type: UploadableType } {
  return (uploadableTypes as readonly string[]).includes(file.type);
}

/**
 * Straight to storage: the API signs a PUT, the browser sends the file there (never through the API),
 * reporting progress from 0 to 1. Answers the file's public URL.
 */
export async function uploadImage(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  if (!isUploadable(file)) {
    throw new ApiError(0, 'UNSUPPORTED_FILE', 'Choose a JPEG, PNG, GIF, WebP or AVIF image.');
  }
  const signed = await signUpload(file.name, file.type);
  await putFile(signed.signedRequest, file, onProgress, signal);
  return signed.url;
}

function putFile(url: string, file: File, onProgress: (fraction: number) => void, signal?: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    request.timeout = uploadTimeoutMs;
    request.setRequestHeader('content-type', file.type);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve();
      } else {
        reject(
          describeUploadFailure({ kind: 'refused', status: request.status, body: request.responseText }),
        );
      }
    };
    request.onerror = () => {
      const storageOrigin = new URL(url).origin;
      void answers(storageOrigin).then((storageReachable) =>
        reject(
          describeUploadFailure({
            kind: 'network',
            online: navigator.onLine,
            storageReachable,
            storageOrigin,
            pageOrigin: window.location.origin,
          }),
        ),
      );
    };
    const fail = (message: string) => () => reject(new ApiError(0, 'UPLOAD_FAILED', message));
    request.ontimeout = fail('The upload took too long. Try again.');
    request.onabort = fail('The upload was cancelled.');
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}

/**
 * Whether `origin` answers a plain request at all (5 s at most). `no-cors` needs no CORS rule, so after a
 * failed upload an answer means the browser blocked the upload (CORS), and no answer a lost connection.
 */
async function answers(origin: string): Promise<boolean> {
  try {
    await fetch(`${origin}/`, { mode: 'no-cors', cache: 'no-store', signal: AbortSignal.timeout(5_000) });
    return true;
  } catch {
    return false;
  }
}
