import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { BatonError, isBatonError, type ErrorCode } from '@baton/errors';
import { issueFromAjvError, type ValidationIssue } from '@baton/protocol';

/** How long a client should wait before retrying after a 503. */
export const RETRY_AFTER_SECONDS = 5;

const STATUS: Partial<Record<ErrorCode, number>> = {
  VALIDATION_FAILED: 400,
  UNSUPPORTED_PROTOCOL_VERSION: 400,
  UNKNOWN_HANDOFF_TYPE: 400,
  WIRE_ENCODE_FAILED: 400,
  REQUEST_INVALID: 400,
  REPLAY_TARGET_NOT_ALLOWED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  TASK_NOT_FOUND: 404,
  DEAD_LETTER_NOT_FOUND: 404,
  REPLAY_JOB_NOT_FOUND: 404,
  REPLAY_STATE_CONFLICT: 409,
  KAFKA_UNAVAILABLE: 503,
  REGISTRY_UNAVAILABLE: 503,
};

export interface ErrorBody {
  error: { code: string; message: string; path?: string; issues?: readonly ValidationIssue[] };
}

export function errorBody(error: BatonError): ErrorBody {
  const issues = error.details?.issues as readonly ValidationIssue[] | undefined;
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.path === undefined ? {} : { path: error.path }),
      ...(issues === undefined ? {} : { issues }),
    },
  };
}

export function sendError(reply: FastifyReply, error: BatonError): FastifyReply {
  const status = STATUS[error.code] ?? 500;
  if (status === 503) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  return reply.code(status).send(errorBody(error));
}

/** A schema failure of a route's body, query or params, as one REQUEST_INVALID with every issue. */
function requestInvalid(error: FastifyError): BatonError {
  const where = `/${error.validationContext ?? 'body'}`;
  const issues = (error.validation ?? []).map((finding) =>
    issueFromAjvError(finding as Parameters<typeof issueFromAjvError>[0], where),
  );
  return new BatonError('REQUEST_INVALID', `invalid request: ${issues[0]?.path ?? where}: ${issues[0]?.message}`, {
    path: issues[0]?.path,
    details: { issues },
  });
}

/**
 * Every error leaves the gateway in one shape, `{error: {code, message, path?, issues?}}`; an
 * unexpected one is logged and answered 500 without its internals.
 */
export function installErrorReplies(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) return sendError(reply, requestInvalid(error));
    if (isBatonError(error)) return sendError(reply, error);
    if (error.statusCode !== undefined && error.statusCode < 500) {
      return reply.code(error.statusCode).send({ error: { code: 'REQUEST_INVALID', message: error.message } });
    }
    request.log.error({ event: 'http.unexpected_error', err: error }, 'unexpected error');
    return reply.code(500).send({ error: { code: 'INTERNAL', message: 'unexpected error; see the gateway log' } });
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: { code: 'ROUTE_NOT_FOUND', message: `no route ${request.method} ${request.url}` } }),
  );
}
