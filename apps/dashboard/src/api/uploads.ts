import { api, dataOf } from '../lib/api-client';
import type { BodyOf } from '../lib/api-shapes';

// Uploads go straight to storage: the API only signs a PUT for one file (features/articles sends it).

type SignStorageBody = BodyOf<'/api/v1/sign-storage', 'post'>;
export type UploadableType = SignStorageBody['fileType'];

/** The image types the signing route accepts, in the order the editor names them. */
export const uploadableTypes = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'image/avif',
] as const satisfies readonly UploadableType[];

/** A signed PUT address for the file, and the public URL it will have once sent. */
export const signUpload = (fileName: string, fileType: UploadableType) =>
  dataOf(api.POST('/api/v1/sign-storage', { body: { fileName, fileType } }));
