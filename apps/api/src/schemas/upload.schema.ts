import { Type } from 'typebox';
import { type ImageType, imageExtensions } from '../storage/upload-signer';

export const SignStorageBodySchema = Type.Object(
  {
    fileName: Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[^\\u0000-\\u001f\\u007f]+$',
      description: 'the original file name; checked, never used in the stored path',
    }),
    fileType: Type.Union(
      (Object.keys(imageExtensions) as ImageType[]).map((type) => Type.Literal(type)),
      { description: 'the media type; the upload must be sent with exactly this Content-Type' },
    ),
  },
  { additionalProperties: false },
);

export const SignedUploadSchema = Type.Object(
  {
    signedRequest: Type.String({
      description: 'PUT the file here within 5 minutes, with the same Content-Type',
    }),
    url: Type.String({ description: "the file's public URL, for the article's image or thumbnail" }),
  },
  { title: 'SignedUpload' },
);
