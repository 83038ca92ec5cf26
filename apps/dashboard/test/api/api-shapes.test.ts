// @vitest-environment node
import { describe, expectTypeOf, it } from 'vitest';
import type { Article, EditArticleBody } from '../../src/api/articles';
import type { PublisherDetail, PublisherState } from '../../src/api/publishers';
import type { Session } from '../../src/api/session';
import type { CreateSiteBody, Site, SiteList } from '../../src/api/sites';
import type { api } from '../../src/lib/api-client';
import type { FieldIssue } from '../../src/lib/api-error';
import type { BodyOf, QueryOf, ResponseOf, Schema } from '../../src/lib/api-shapes';

// The types the dashboard reads from the generated OpenAPI document. These are checked by the compiler
// (`pnpm typecheck` covers the tests): a call to a path, with a parameter or a body the API does not
// have, does not compile (each `@ts-expect-error` below fails the type check once it stops being an error).

type Call = typeof api;

describe('the shapes named from the document', () => {
  it('names bodies, answers and queries of operations', () => {
    expectTypeOf<CreateSiteBody>().toEqualTypeOf<BodyOf<'/api/v1/site', 'post'>>();
    expectTypeOf<CreateSiteBody>().toHaveProperty('slug').toEqualTypeOf<string>();
    expectTypeOf<SiteList['data'][number]>().toEqualTypeOf<Schema<'SiteListItem'>>();
    expectTypeOf<Site>().toEqualTypeOf<ResponseOf<'/api/v1/site/{id}', 'get'>>();
    expectTypeOf<QueryOf<'/api/v1/publisher', 'get'>['state']>().toEqualTypeOf<PublisherState | undefined>();
  });

  it('carries dates as the strings JSON has, and nulls as the API sends them', () => {
    expectTypeOf<Article['createdAt']>().toEqualTypeOf<string>();
    expectTypeOf<Article['publishedAt']>().toEqualTypeOf<string | null>();
    expectTypeOf<PublisherDetail['feedHealth']['lastFetchedAt']>().toEqualTypeOf<string | null>();
  });

  it('types the session, the house error details and a partial edit', () => {
    expectTypeOf<Session['user']['role']>().toEqualTypeOf<
      'admin' | 'editor' | 'contributor' | 'reviewer' | 'publisher'
    >();
    expectTypeOf<FieldIssue>().toHaveProperty('message').toEqualTypeOf<string>();
    expectTypeOf<{ title: string }>().toExtend<EditArticleBody>();
    expectTypeOf<Record<string, never>>().toExtend<EditArticleBody>();
  });
});

describe('every call is checked against the document', () => {
  it('refuses a path, a method, a parameter or a body the API does not have', () => {
    // Compiled, never run: the calls would reach the network.
    const calls = (client: Call) => [
      client.GET('/api/v1/site'),
      client.GET('/api/v1/site/{id}', { params: { path: { id: 'x' } } }),
      // @ts-expect-error no such path
      client.GET('/api/v1/sites'),
      // @ts-expect-error the site list has no POST body of this shape (no slug)
      client.POST('/api/v1/site', { body: { name: 'Harbour' } }),
      // @ts-expect-error the path parameter is required
      client.GET('/api/v1/site/{id}'),
      // @ts-expect-error no PUT on the site list
      client.PUT('/api/v1/site', { body: {} }),
      // @ts-expect-error an article status the API does not know
      client.GET('/api/v1/article', { params: { query: { status: 'archived' } } }),
    ];
    expectTypeOf(calls).returns.toBeArray();
  });
});
