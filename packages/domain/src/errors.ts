/**
 * Domain errors: small, transport-free, each with a stable machine-readable code.
 * The API maps them to HTTP statuses in one place; the worker decides on retries from them.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
}

export class NotFoundError extends DomainError {
  readonly code: string;
  constructor(entity: string, id: string) {
    super(`${entity} ${id} not found`);
    this.code = `${entity.toUpperCase()}_NOT_FOUND`;
  }
}

export class InvalidTransitionError extends DomainError {
  readonly code = 'INVALID_TRANSITION';
  constructor(
    readonly from: string,
    readonly action: string,
    message = `Cannot ${action} an article that is ${from}`,
  ) {
    super(message);
  }
}

/** A uniqueness rule was broken, e.g. an e-mail or slug already in use. */
export class ConflictError extends DomainError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Input that passed the schema but breaks a domain rule, e.g. an unknown host site. */
export class DomainValidationError extends DomainError {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A write made on the condition that the record is still at a version the caller saw, and it is not. */
export class VersionMismatchError extends DomainError {
  readonly code: string;
  constructor(entity: string, id: string) {
    super(`${entity} ${id} has changed since that version was read`);
    this.code = `${entity.toUpperCase()}_CHANGED`;
  }
}

/** The article may not appear before its embargo: it can be scheduled to publish then, not published now. */
export class ArticleEmbargoedError extends DomainError {
  readonly code = 'ARTICLE_EMBARGOED';
  constructor(
    readonly articleId: string,
    readonly embargoUntil: Date,
  ) {
    super(
      `Article ${articleId} is embargoed until ${embargoUntil.toISOString()}: schedule its publication at or after that time`,
    );
  }
}

/**
 * The audit row of a change could not be written, so the change was rolled back with it (docs/audit.md): nothing
 * changed, and the same request may be sent again.
 */
export class AuditNotWrittenError extends DomainError {
  readonly code = 'AUDIT_NOT_WRITTEN';
  constructor(
    readonly action: string,
    override readonly cause: unknown,
  ) {
    super(`Nothing was changed: the audit record of ${action} could not be written. Try again.`);
  }
}
