import { type Static, Type } from 'typebox';
import { ArticleSchema, VersionedArticleResponseSchema } from './article.schema';
import { DateTimeSchema } from './date-time.schema';
import { PageQuerySchema } from './pagination.schema';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const RevisionActorSchema = Type.Object(
  {
    kind: Type.Union(
      [
        Type.Literal('user'),
        Type.Literal('feed'),
        Type.Literal('api-client'),
        Type.Literal('scheduler'),
        Type.Literal('system'),
      ],
      {
        description:
          "user: a person in the dashboard; api-client: a program with a user's bearer token; feed: a publisher's feed import; scheduler: a scheduled action; system: scripts",
      },
    ),
    id: Nullable(Type.String({ description: "the user's, publisher's or client's id" })),
    label: Type.String({ description: "an e-mail, a publisher's name, 'scheduler'" }),
  },
  { title: 'RevisionActor' },
);

export const RevisionSourceSchema = Type.Union([
  Type.Literal('editor'),
  Type.Literal('autosave'),
  Type.Literal('api'),
  Type.Literal('import'),
  Type.Literal('review'),
  Type.Literal('bulk'),
  Type.Literal('schedule'),
  Type.Literal('restore'),
]);

export const RevisionSummarySchema = Type.Object(
  {
    n: Type.Integer({ minimum: 1, description: 'the revision number, per article from 1' }),
    createdAt: DateTimeSchema,
    actor: RevisionActorSchema,
    source: RevisionSourceSchema,
    reason: Nullable(Type.String()),
    status: Type.String({ description: "the article's status at this revision" }),
  },
  { title: 'RevisionSummary' },
);

/**
 * What a revision keeps: the article as `GET /article/:id` answers it, without id and times. Every field
 * is optional and others may appear: a snapshot has the fields the article had when it was taken.
 */
export const ArticleSnapshotSchema = Type.Partial(
  Type.Omit(ArticleSchema, ['id', 'createdAt', 'updatedAt']),
  { additionalProperties: true, title: 'ArticleSnapshot' },
);

export const ArticleRevisionSchema = Type.Object(
  { ...RevisionSummarySchema.properties, snapshot: ArticleSnapshotSchema },
  { title: 'ArticleRevision' },
);

export const RevisionParamsSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  n: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
});

export const RevisionListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  before: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description:
        'keyset: only revisions numbered below this one (the oldest `n` of the page shown before), newest first; `page` then counts from there. `total` stays the count of all revisions',
    }),
  ),
});

export const RevisionDiffQuerySchema = Type.Object({
  from: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'one revision number' }),
  to: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'another (either order)' }),
});

export const RevisionDiffSchema = Type.Object(
  {
    from: RevisionSummarySchema,
    to: RevisionSummarySchema,
    fields: Type.Array(
      Type.Object(
        { field: Type.String(), from: Type.Unknown(), to: Type.Unknown() },
        { title: 'FieldChange' },
      ),
      { description: 'every field that differs (whole values, the body included); absent values are null' },
    ),
    body: Type.Array(
      Type.Object(
        {
          op: Type.Union([Type.Literal('equal'), Type.Literal('delete'), Type.Literal('insert')]),
          text: Type.String(),
        },
        { title: 'BodyDiffPart' },
      ),
      {
        description:
          'the body as an HTML-aware text diff (tags, words and spaces are the tokens): equal runs, runs only `from` has (delete), runs only `to` has (insert)',
      },
    ),
  },
  { title: 'RevisionDiff' },
);

export const RestoreRevisionBodySchema = Type.Object(
  {
    reason: Type.Optional(
      Nullable(Type.String({ maxLength: 500, description: 'why, kept with the new revision' })),
    ),
  },
  { additionalProperties: false, title: 'RestoreRevision' },
);
export type RestoreRevisionBody = Static<typeof RestoreRevisionBodySchema>;

export const RestoredArticleSchema = Type.Object(
  {
    article: ArticleSchema,
    restoredFrom: Type.Integer({ description: 'the revision whose content was restored' }),
    revision: Type.Integer({ description: 'the new revision the restore recorded' }),
    statusUnchanged: Type.Literal(true, { description: 'a restore never changes the status' }),
    message: Type.String({ description: 'what happened, in words (says whether readers see it now)' }),
    missingHostSites: Type.Array(Type.String(), {
      description: 'host sites of that revision that no longer exist, left out',
    }),
  },
  { title: 'RestoredArticle' },
);

export const RestoredArticleResponseSchema = {
  ...RestoredArticleSchema,
  headers: VersionedArticleResponseSchema.headers,
};
