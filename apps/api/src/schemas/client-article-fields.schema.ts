import { Type } from 'typebox';
import { DateTimeSchema } from './date-time.schema';

// Issue 32's fields as child sites receive them (bylines, image metadata, corrections).

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const ClientBylineSchema = Type.Object(
  {
    name: Type.String(),
    url: Type.Union([Type.String(), Type.Null()], { description: 'a public profile or home page' }),
  },
  { title: 'ClientByline' },
);

export const ClientImageMetaSchema = Type.Object(
  {
    alt: Nullable(Type.String({ description: 'text alternative; imported pictures may lack it' })),
    caption: Nullable(Type.String()),
    credit: Nullable(Type.String()),
    width: Nullable(Type.Integer()),
    height: Nullable(Type.Integer()),
    focalPoint: Nullable(
      Type.Object(
        { x: Type.Number(), y: Type.Number() },
        {
          description: 'where crops should centre, as fractions (0..1) of width and height from the top left',
        },
      ),
    ),
  },
  { title: 'ClientImageMeta' },
);

export const ClientCorrectionSchema = Type.Object(
  { text: Type.String(), at: DateTimeSchema },
  { title: 'ClientCorrection' },
);

const ClientRenditionSetSchema = Type.Object(
  {
    srcset: Type.String({ description: 'the `srcset` attribute value: each URL and its width (`480w`)' }),
    sources: Type.Array(
      Type.Object({ width: Type.Integer(), height: Type.Integer(), url: Type.String({ format: 'uri' }) }),
      { description: 'narrowest first; never wider than the original when its width is known (480 always)' },
    ),
  },
  { title: 'ClientRenditionSet' },
);

/** One picture's crops around its focal point, by aspect ratio, each URL signed for imgproxy. */
export const ClientPictureRenditionsSchema = Type.Object(
  { '16:9': ClientRenditionSetSchema, '4:3': ClientRenditionSetSchema, '1:1': ClientRenditionSetSchema },
  { title: 'ClientPictureRenditions' },
);

export const ClientRenditionsSchema = Type.Object(
  {
    thumbnail: Nullable(ClientPictureRenditionsSchema),
    image: Nullable(ClientPictureRenditionsSchema),
  },
  { title: 'ClientRenditions' },
);
