import { Type } from 'typebox';

/** A point in time: a Date in handlers, an ISO 8601 string on the wire (fast-json-stringify calls toISOString). */
export const Timestamp = (options: { description?: string } = {}) =>
  Type.Unsafe<Date>({ type: 'string', format: 'date-time', ...options });
