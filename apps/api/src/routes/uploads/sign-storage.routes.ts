import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { storageVariables } from '@newsroom/config';
import { HttpError } from '../../http-error';
import { errorResponses } from '../../schemas/error.schema';
import { SignedUploadSchema, SignStorageBodySchema } from '../../schemas/upload.schema';

// Names the settings, never their values: an administrator reading it knows what to set.
const notConfigured =
  `Uploads are not configured on this server: set ${storageVariables.join(', ')} ` +
  '(and STORAGE_ENDPOINT for an S3-compatible store other than AWS S3)';

/** Signs direct-to-storage image uploads. Prefix /sign-storage. */
export const signStorageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '',
    {
      // Signs a URL and stores nothing (the upload goes to storage, the URL into an audited article write).
      config: { audit: false },
      schema: {
        tags: ['uploads'],
        security: [{ bearerAuth: [] }],
        summary: 'A signed URL to PUT one image straight to object storage, valid 5 minutes',
        body: SignStorageBodySchema,
        response: { 200: SignedUploadSchema, ...errorResponses(400, 401, 403, 413, 415, 503) },
      },
    },
    async (request) => {
      if (!app.storage) {
        throw new HttpError(503, 'STORAGE_NOT_CONFIGURED', notConfigured);
      }
      const { signedRequest, url } = await app.storage.signUpload(request.body.fileType);
      return { signedRequest, url };
    },
  );
};
