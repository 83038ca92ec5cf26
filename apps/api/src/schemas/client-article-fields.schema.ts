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
