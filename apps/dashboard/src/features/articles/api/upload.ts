import { api } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import type { SignedUpload } from '../../../lib/api-types';

/** The image types the signing route accepts (its schema's list, built at run time, so typed here as text). */
export const uploadableTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif'] as const;

/** An upload may take this long at most (the signed address lives 5 minutes). */
export const uploadTimeoutMs = 4 * 60_000;

export function isUploadable(file: File): boolean {
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
  const signed = await api.post<SignedUpload>('/sign-storage', { fileName: file.name, fileType: file.type });
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
          new ApiError(
            request.status,
            'UPLOAD_FAILED',
            `The storage refused the file (HTTP ${request.status}).`,
          ),
        );
      }
    };
    const fail = (message: string) => () => reject(new ApiError(0, 'UPLOAD_FAILED', message));
    request.onerror = fail('The file could not be sent to the storage. Check your connection and try again.');
    request.ontimeout = fail('The upload took too long. Try again.');
    request.onabort = fail('The upload was cancelled.');
    signal?.addEventListener('abort', () => request.abort(), { once: true });
    request.send(file);
  });
}
