import type { components, paths } from '../generated/admin-api';

// The request and response shapes of the API's operations, read from the generated OpenAPI types
// (src/generated/admin-api.ts): each query module in src/api/ names the ones of its resource with these,
// so no field is ever retyped by hand.

export type ApiPath = keyof paths;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends ApiPath, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<Answer> = Answer extends { content: { 'application/json': infer Body } } ? Body : never;

/** A named schema of the document (`Site`, `Article`, `Error`). */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The JSON body of an operation's success answer (its 200, else its 201). */
export type ResponseOf<P extends ApiPath, M extends Method> = Operation<
  P,
  M
>['responses'] extends infer Answers
  ? Answers extends { 200: infer Ok }
    ? JsonOf<Ok>
    : Answers extends { 201: infer Created }
      ? JsonOf<Created>
      : never
  : never;

/** The JSON body an operation takes. */
export type BodyOf<P extends ApiPath, M extends Method> =
  Operation<P, M> extends {
    requestBody: { content: { 'application/json': infer Body } };
  }
    ? Body
    : never;

/** The query parameters of an operation. */
export type QueryOf<P extends ApiPath, M extends Method> = NonNullable<
  Operation<P, M>['parameters']['query']
>;
