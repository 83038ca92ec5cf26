import { maxReleaseActions } from '@newsroom/domain';
import { type Static, Type } from 'typebox';
import { DateTimeSchema } from './date-time.schema';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** A time in a request: ISO 8601 with its offset (entered in any time zone, stored and returned in UTC). */
const DueAtSchema = Type.String({
  format: 'date-time',
  description:
    'when it runs: an ISO 8601 time with its UTC offset (e.g. 2026-12-01T06:00:00+01:00), stored and returned in UTC; at most 60 s in the past (runs at once) and five years ahead',
});

export const ScheduledActionKindSchema = Type.Union([Type.Literal('publish'), Type.Literal('unpublish')], {
  description:
    'publish: draft -> published; unpublish: published -> draft (the same transitions as the PUT routes)',
});
export const ScheduleStatusSchema = Type.Union(
  [Type.Literal('scheduled'), Type.Literal('done'), Type.Literal('failed'), Type.Literal('cancelled')],
  {
    description:
      'scheduled (waiting), done (ran), failed (ran and was refused: see failureReason), cancelled',
  },
);

export const ScheduledActionSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    articleId: Type.String({ format: 'uuid' }),
    articleTitle: Nullable(Type.String({ description: "the article's title now; null once it was deleted" })),
    articleSlug: Nullable(Type.String()),
    kind: ScheduledActionKindSchema,
    dueAt: DateTimeSchema,
    status: ScheduleStatusSchema,
    releaseId: Nullable(Type.String({ format: 'uuid' })),
    releaseName: Nullable(Type.String()),
    createdBy: Nullable(
      Type.String({ format: 'uuid', description: 'the user who scheduled it; null: the system' }),
    ),
    createdByEmail: Nullable(Type.String()),
    ranAt: Nullable(DateTimeSchema),
    latenessMs: Nullable(Type.Number({ description: 'ranAt - dueAt in milliseconds: how late it ran' })),
    failureReason: Nullable(Type.String({ description: 'why it failed, e.g. the article was deleted' })),
    createdAt: DateTimeSchema,
    updatedAt: DateTimeSchema,
  },
  { title: 'ScheduledAction' },
);

export const ReleaseSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    dueAt: DateTimeSchema,
    status: ScheduleStatusSchema,
    createdBy: Nullable(Type.String({ format: 'uuid' })),
    createdByEmail: Nullable(Type.String()),
    ranAt: Nullable(DateTimeSchema),
    latenessMs: Nullable(Type.Number()),
    failureReason: Nullable(Type.String()),
    actions: Type.Array(ScheduledActionSchema),
    createdAt: DateTimeSchema,
    updatedAt: DateTimeSchema,
  },
  { title: 'Release' },
);

export const ScheduleIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });

const statusList = Type.String({
  pattern: '^(scheduled|done|failed|cancelled)(,(scheduled|done|failed|cancelled))*$',
  description: 'comma-separated statuses to include (default: all)',
});

export const ScheduledActionListQuerySchema = Type.Object(
  {
    status: Type.Optional(statusList),
    articleId: Type.Optional(Type.String({ format: 'uuid' })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'due at or after this time' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'due before this time' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 500 })),
  },
  { additionalProperties: false },
);
export type ScheduledActionListQuery = Static<typeof ScheduledActionListQuerySchema>;

export const ReleaseListQuerySchema = Type.Object(
  {
    status: Type.Optional(statusList),
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 200 })),
  },
  { additionalProperties: false },
);

export const CreateScheduledActionBodySchema = Type.Object(
  {
    articleId: Type.String({ format: 'uuid' }),
    kind: ScheduledActionKindSchema,
    dueAt: DueAtSchema,
  },
  { additionalProperties: false },
);

export const RescheduleBodySchema = Type.Object({ dueAt: DueAtSchema }, { additionalProperties: false });

export const CreateReleaseBodySchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    dueAt: DueAtSchema,
    actions: Type.Array(
      Type.Object(
        { articleId: Type.String({ format: 'uuid' }), kind: ScheduledActionKindSchema },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: maxReleaseActions },
    ),
  },
  { additionalProperties: false },
);

export const EmbargoBodySchema = Type.Object(
  {
    embargoUntil: Type.Union([DueAtSchema, Type.Null()], {
      description:
        'the time before which the article appears on no child-site route (in the future, at most five years ahead); null lifts the embargo',
    }),
  },
  { additionalProperties: false },
);
