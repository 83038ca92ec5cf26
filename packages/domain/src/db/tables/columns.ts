import type { ColumnType } from 'kysely';

// The column shapes and value types the table files share.

/** A timestamp column: read as Date, written as Date or SQL, defaulted by Postgres where Generated. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
export type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
/** A text[] column: read as string[], written as string[]. */
export type TextArray = ColumnType<string[], string[] | undefined, string[]>;
/** A nullable column new rows may leave out (null). */
export type OptionalNullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export type ArticleStatus = 'draft' | 'pending' | 'published' | 'rejected';
/** `admin` is the administrator (the stored value predates the staff roles); see packages/domain/src/policy. */
export type UserRole = 'admin' | 'editor' | 'contributor' | 'reviewer' | 'publisher';
/** The roles a grant gives on one site. */
export type SiteRole = 'editor' | 'contributor' | 'reviewer';
