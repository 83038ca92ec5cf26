import { type Static, Type } from 'typebox';

/** The one error body every 4xx/5xx response has. `code` is stable and machine-readable. */
export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer(),
    code: Type.String({ examples: ['VALIDATION_ERROR'] }),
    error: Type.String({ examples: ['Bad Request'] }),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), {
        description: 'validation problems, one per field',
      }),
    ),
  },
  { $id: 'Error', title: 'Error' },
);
export type ErrorBody = Static<typeof ErrorSchema>;

/**
 * The error body by reference to the shared schema (registered by the OpenAPI plugin), so the document names
 * it once as the `Error` component instead of repeating it in every response. Typed as the schema itself.
 */
const ErrorReference = Type.Unsafe<ErrorBody>({ $ref: 'Error#' }) as unknown as typeof ErrorSchema;

/** Response schemas for the given error statuses, to spread into a route's `response`. */
export function errorResponses<const S extends readonly number[]>(...statuses: S) {
  return Object.fromEntries(statuses.map((status) => [status, ErrorReference])) as {
    [K in S[number]]: typeof ErrorSchema;
  };
}
