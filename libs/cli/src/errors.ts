/** The exit codes of `baton`: scripts tell a mistake of theirs from a refusal and from an outage. */
export const EXIT = {
  OK: 0,
  /** Bad arguments, or input that failed local validation. */
  USAGE: 1,
  /** The gateway refused the request (4xx), or what was asked for does not exist. */
  REFUSED: 2,
  /** The gateway, Kafka or the registry could not be reached or failed (5xx, connection refused). */
  UNAVAILABLE: 3,
  /** A bulk replay finished with failed items, or was stopped before it finished. */
  REPLAY_FAILED: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface Issue {
  code: string;
  path: string;
  message: string;
}

/** An error the command reports as one line (and one more per issue), ending with `exitCode`. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: ExitCode;
  readonly path: string | undefined;
  readonly issues: readonly Issue[];

  constructor(
    code: string,
    message: string,
    options: { exitCode: ExitCode; path?: string; issues?: readonly Issue[]; cause?: unknown },
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.code = code;
    this.exitCode = options.exitCode;
    this.path = options.path;
    this.issues = options.issues ?? [];
  }
}

export function usageError(message: string): CliError {
  return new CliError('USAGE', message, { exitCode: EXIT.USAGE });
}

/** The exit code of an HTTP error status: 4xx refused, 5xx (and anything else) unavailable. */
export function exitCodeForStatus(status: number): ExitCode {
  return status >= 400 && status < 500 ? EXIT.REFUSED : EXIT.UNAVAILABLE;
}

/** Codes of Baton errors that mean a dependency is down rather than the request being wrong. */
const UNAVAILABLE_CODES = new Set(['KAFKA_UNAVAILABLE', 'REGISTRY_UNAVAILABLE', 'GATEWAY_UNAVAILABLE']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function issuesOf(value: unknown): Issue[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).map((issue) => ({
    code: String(issue.code ?? ''),
    path: String(issue.path ?? ''),
    message: String(issue.message ?? ''),
  }));
}

/**
 * A gateway error answer (`{error: {code, message, path?, issues?}}`) as a CliError; an answer of
 * another shape keeps its status as the code.
 */
export function apiError(status: number, body: unknown): CliError {
  const error = isObject(body) && isObject(body.error) ? body.error : undefined;
  const code = typeof error?.code === 'string' ? error.code : `HTTP_${status}`;
  const message =
    typeof error?.message === 'string' ? error.message : `the gateway answered ${status} ${describeBody(body)}`;
  return new CliError(code, message, {
    exitCode: exitCodeForStatus(status),
    ...(typeof error?.path === 'string' ? { path: error.path } : {}),
    issues: issuesOf(error?.issues),
  });
}

function describeBody(body: unknown): string {
  if (body === undefined || body === '') return 'with no body';
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Any error as a CliError: CliErrors as they are, Baton errors (they carry a stable `code`) by
 * their code, anything else as INTERNAL.
 */
export function toCliError(error: unknown): CliError {
  if (error instanceof CliError) return error;
  if (isObject(error) && typeof error.code === 'string' && /^[A-Z][A-Z_]+$/.test(error.code)) {
    const issues = issuesOf(error.issues ?? (isObject(error.details) ? error.details.issues : undefined));
    return new CliError(error.code, String(error.message ?? error.code), {
      exitCode:
        UNAVAILABLE_CODES.has(error.code) || error.retriable === true
          ? EXIT.UNAVAILABLE
          : issues.length > 0
            ? EXIT.USAGE
            : EXIT.REFUSED,
      ...(typeof error.path === 'string' ? { path: error.path } : {}),
      issues,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CliError('INTERNAL', message, { exitCode: EXIT.UNAVAILABLE, cause: error });
}

/** What is printed on stderr: `error CODE at PATH: message`, then one indented line per issue. */
export function formatError(error: CliError): string[] {
  const where = error.path ? ` at ${error.path}` : '';
  return [
    `error ${error.code}${where}: ${oneLine(error.message)}`,
    ...error.issues.map((issue) => `  ${issue.code} ${issue.path || '/'}: ${oneLine(issue.message)}`),
  ];
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
