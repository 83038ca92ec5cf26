import { Type } from 'typebox';

/** An ISO 8601 timestamp in JSON, a Date in handlers (the serialiser formats Dates for date-time strings). */
export const DateTimeSchema = Type.Unsafe<Date>(Type.String({ format: 'date-time' }));
