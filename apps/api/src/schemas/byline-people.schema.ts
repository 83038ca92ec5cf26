import { Type } from 'typebox';

/** A staff user a byline may credit: id (a byline's `userId`) and display name, nothing more. */
export const BylinePersonSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String({ description: "the user's display name, printed as the byline" }),
  },
  { title: 'BylinePerson' },
);

export const BylinePeopleSchema = Type.Object(
  { data: Type.Array(BylinePersonSchema) },
  { title: 'BylinePeople' },
);
