import {
  ArticleEmbargoedError,
  AuditNotWrittenError,
  ConflictError,
  DomainError,
  DomainValidationError,
  InvalidTransitionError,
  isDatabaseUnavailable,
  isSearchTooComplex,
  NotFoundError,
  VersionMismatchError,
} from '@newsroom/domain';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { databaseUnavailableError } from '../database-unavailable';
import { HttpError } from '../http-error';
import type { ErrorBody } from '../schemas/error.schema';
import { searchTooComplexError } from '../search-too-complex';
import { recordAllowedMethods } from './allowed-methods';
import { describeValidationProblems } from './validation-problems';

/** HTTP status of each domain error class. The code comes from the error itself. */
function statusOfDomainError(error: DomainError): number {
  if (error instanceof NotFoundError) return 404;
  if (error instanceof InvalidTransitionError || error instanceof ConflictError) return 409;
  if (error instanceof ArticleEmbargoedError) return 409;
  if (error instanceof VersionMismatchError) return 412;
  if (error instanceof DomainValidationError) return 400;
  // Rolled back with its change: nothing happened, the client may send the request again.
  if (error instanceof AuditNotWrittenError) return 503;
  return 400;
}

/** Stable codes for the errors Fastify itself raises, instead of its internal FST_* names. */
const fastifyCodes: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'INVALID_CONTENT_LENGTH',
  FST_ERR_BAD_URL: 'MALFORMED_URL',
  FST_ERR_MAX_PARAM_LENGTH: 'PATH_PARAMETER_TOO_LONG',
};

const reasons: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Upper-snake name of a status, e.g. 404 -> NOT_FOUND, used when an error carries no code of ours. */
const codeOfStatus = (status: number) => (reasons[status] ?? 'Error').toUpperCase().replace(/[^A-Z]+/g, '_');

export function errorBody(
  statusCode: number,
  code: string,
  message: string,
  details?: ErrorBody['details'],
): ErrorBody {
  return {
    statusCode,
    code,
    error: reasons[statusCode] ?? 'Error',
    message,
    ...(details ? { details } : {}),
  };
}

/** Messages of the errors Fastify raises before routing; its own repeat the whole path, however long. */
const frameworkMessages: Record<string, string> = {
  FST_ERR_BAD_URL: 'The URL path is not valid percent-encoding',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is longer than 100 characters',
};

/**
 * The `frameworkErrors` server option: what Fastify refuses before a route is chosen (a malformed or
 * over-long path) never reaches setErrorHandler, so it is answered here, in the same shape.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 500;
  if (status < 400 || status >= 500) {
    request.log.error({ err: error }, 'unhandled framework error');
    return reply.status(500).send(errorBody(500, 'INTERNAL_ERROR', 'Internal server error'));
  }
  const code = fastifyCodes[error.code] ?? codeOfStatus(status);
  return reply.status(status).send(errorBody(status, code, frameworkMessages[error.code] ?? 'Bad request'));
}

/**
 * One error shape for every failure. Validation and domain errors become 4xx with stable codes;
 * anything unexpected is logged and answered as a bare 500: no stack, SQL or driver text reaches a client.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      // One line per request without a stack: an outage would otherwise flood the log.
      request.log.warn({ reason: error.message }, 'database unavailable');
      error = databaseUnavailableError();
    } else if (isSearchTooComplex(error)) {
      // The client's search, not a fault of ours: a 400, and nothing logged beyond the request line.
      error = searchTooComplexError();
    }
    if ('validation' in error && error.validation) {
      const { message, details } = describeValidationProblems(error.validationContext, error.validation);
      return reply.status(400).send(errorBody(400, 'VALIDATION_ERROR', message, details));
    }
    if (error instanceof DomainError) {
      const status = statusOfDomainError(error);
      if (error instanceof AuditNotWrittenError)
        request.log.error(
          { err: error.cause, action: error.action },
          'audit row not written: change rolled back',
        );
      return reply.status(status).send(errorBody(status, error.code, error.message));
    }
    if (error instanceof HttpError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send(errorBody(error.statusCode, error.code, error.message));
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      const fastifyCode =
        'code' in error && typeof error.code === 'string' ? fastifyCodes[error.code] : undefined;
      const ownCode =
        'code' in error && typeof error.code === 'string' && !error.code.startsWith('FST_')
          ? error.code
          : undefined;
      return reply
        .status(status)
        .send(errorBody(status, fastifyCode ?? ownCode ?? codeOfStatus(status), error.message));
    }
    if (status === 503) {
      const code = 'code' in error && typeof error.code === 'string' ? error.code : 'SERVICE_UNAVAILABLE';
      return reply.status(503).send(errorBody(503, code, error.message));
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(errorBody(500, 'INTERNAL_ERROR', 'Internal server error'));
  });

  const allowedMethods = recordAllowedMethods(app);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = allowedMethods(path);
    if (allowed.length > 0) {
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send(
          errorBody(
            405,
            'METHOD_NOT_ALLOWED',
            `${request.method} is not allowed on ${path}: use ${allowed.join(' or ')}`,
          ),
        );
    }
    return reply
      .status(404)
      .send(errorBody(404, 'ROUTE_NOT_FOUND', `Route ${request.method} ${path} not found`));
  });
});
