import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HttpError } from '../../http-error';
import { errorResponses } from '../../schemas/error.schema';
import { SignedUploadSchema, SignStorageBodySchema } from '../../schemas/upload.schema';

/** Signs direct-to-storage image uploads. Prefix /sign-storage. */
export const signStorageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '',
    {
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
        throw new HttpError(503, 'STORAGE_NOT_CONFIGURED', 'Uploads are not configured on this server');
      }
      const { signedRequest, url } = await app.storage.signUpload(request.body.fileType);
      return { signedRequest, url };
    },
  );
};
