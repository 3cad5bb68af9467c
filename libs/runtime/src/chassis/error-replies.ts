import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BatonError, ERROR_CATALOGUE, isBatonError } from '@baton/errors';
import { issueFromAjvError, type ValidationIssue } from '@baton/protocol';
import type { Logger } from '../logger.js';

/** How long a client should wait before retrying after a 503. */
const RETRY_AFTER_SECONDS = 5;

/**
 * The largest declared body over a route's limit that is still read, and thrown away, after the
 * refusal. Fastify closes the connection on a body it refuses unread; a client still sending it
 * then gets a broken pipe instead of the answer, or the answer, depending on how much of the body
 * the sockets' buffers took (POST /v1/handoffs with 1 to 1.5 MiB: either, from run to run). Read to
 * its end, the body no longer races the answer, which is what nginx's lingering close is for; a
 * larger one is still cut off, as Fastify does.
 */
export const LINGER_MAX_BYTES = 16 * 1024 * 1024;

/**
 * A refused body of a declared length within LINGER_MAX_BYTES is read to its end once the answer
 * is sent (Node discards a request body nothing read), and the connection stays open.
 */
function lingerOnBodyTooLarge(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') return;
  const declared = Number(request.headers['content-length']);
  if (declared <= LINGER_MAX_BYTES) reply.removeHeader('connection');
}

/** The one shape of every HTTP error answer of every Baton service. */
interface ErrorBody {
  error: { code: string; message: string; path?: string; issues?: readonly ValidationIssue[] };
}

function errorBody(error: BatonError): ErrorBody {
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

/** Answers `error` with the status its code has in the error catalogue. */
function sendError(reply: FastifyReply, error: BatonError): FastifyReply {
  const status = ERROR_CATALOGUE[error.code].httpStatus;
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
 * Every error leaves a service in one shape, `{error: {code, message, path?, issues?}}`: a
 * BatonError with its catalogue status, a route schema failure as REQUEST_INVALID, a client error
 * Fastify raises itself (a malformed JSON body, say) as REQUEST_INVALID, an unknown route as
 * ROUTE_NOT_FOUND, anything else logged and answered 500 INTERNAL without its internals.
 */
export function installErrorReplies(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) return sendError(reply, requestInvalid(error));
    if (isBatonError(error)) return sendError(reply, error);
    if (error.statusCode !== undefined && error.statusCode < 500) {
      lingerOnBodyTooLarge(error, request, reply);
      return sendError(reply, new BatonError('REQUEST_INVALID', error.message));
    }
    logger.error(
      { event: 'http.unexpected_error', method: request.method, url: request.url, err: error },
      'unexpected error',
    );
    return sendError(reply, new BatonError('INTERNAL', 'unexpected error; see the service log'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new BatonError('ROUTE_NOT_FOUND', `no route ${request.method} ${request.url}`)),
  );
}
