import { BatonError, type ErrorCode } from '@baton/errors';
import { soleRecipient } from '@baton/negotiation';
import { HandoffValidationError, type ValidationIssue } from '@baton/protocol';
import type { Handoff } from '@baton/runtime';
import { handoffFromBody, isObject } from './handoff-from-body.js';

/** A POST /v1/negotiations body, checked, with its handoff filled as POST /v1/handoffs fills one. */
export interface NegotiationBody {
  handoff: Handoff;
  desired_agent_type: string;
  reason: string;
  /** The one agent the handoff is offered to. */
  receiver: string;
}

const TEXT_FIELDS = ['desired_agent_type', 'reason'] as const;
const FIELDS = new Set<string>(['handoff', ...TEXT_FIELDS]);
/** Both texts travel in every request and staged context; a bound keeps them short of a record's limit. */
const MAX_TEXT_LENGTH = 1_000;

function textIssue(body: Record<string, unknown>, field: (typeof TEXT_FIELDS)[number]): ValidationIssue | undefined {
  const value = body[field];
  const path = `/${field}`;
  if (value === undefined) return { code: 'FIELD_REQUIRED', path, message: `required field '${field}' is missing` };
  if (typeof value !== 'string') return { code: 'FIELD_TYPE', path, message: 'must be of type string' };
  if (value.trim() === '' || value.length > MAX_TEXT_LENGTH) {
    return { code: 'FIELD_OUT_OF_RANGE', path, message: `must be 1 to ${MAX_TEXT_LENGTH} characters, not blank` };
  }
  return undefined;
}

/** The handoff's own issues, under /handoff; the error code is the handoff's when it has any. */
function handoffIssues(
  value: unknown,
  isAgentId: (id: string) => boolean,
): { handoff?: Handoff; receiver?: string; issues: ValidationIssue[]; code?: ErrorCode } {
  if (value === undefined) {
    return { issues: [{ code: 'FIELD_REQUIRED', path: '/handoff', message: "required field 'handoff' is missing" }] };
  }
  if (!isObject(value))
    return { issues: [{ code: 'FIELD_TYPE', path: '/handoff', message: 'must be of type object' }] };
  let handoff: Handoff;
  try {
    handoff = handoffFromBody(value);
  } catch (error) {
    if (!(error instanceof HandoffValidationError)) throw error;
    const issues = error.issues.map((issue) => ({ ...issue, path: `/handoff${issue.path}` }));
    return { issues, code: error.code };
  }
  const path = '/handoff/metadata/recipient_id';
  let receiver: string;
  try {
    receiver = soleRecipient(handoff);
  } catch (error) {
    return { issues: [{ code: 'FIELD_INVALID', path, message: (error as Error).message }], code: 'VALIDATION_FAILED' };
  }
  if (!isAgentId(receiver)) {
    const message = "must be an agent id: letters, digits, '.', '_' and '-' only";
    return { issues: [{ code: 'FIELD_PATTERN', path, message }], code: 'VALIDATION_FAILED' };
  }
  return { handoff, receiver, issues: [] };
}

function invalid(code: ErrorCode, issues: ValidationIssue[]): BatonError {
  const [first] = issues;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  return new BatonError(code, `invalid negotiation: ${first?.path || '/'}: ${first?.message}${more}`, {
    path: first?.path,
    details: { issues },
  });
}

/**
 * Reads a POST /v1/negotiations body, naming every issue by its path in the body: REQUEST_INVALID
 * for the request's own fields; the handoff's code (VALIDATION_FAILED, UNKNOWN_HANDOFF_TYPE,
 * UNSUPPORTED_PROTOCOL_VERSION) when the handoff is at fault, including a recipient_id that is not
 * exactly one agent. `isAgentId` says whether an id can name the agent's control topic.
 */
export function readNegotiationBody(body: unknown, isAgentId: (id: string) => boolean): NegotiationBody {
  if (!isObject(body)) {
    throw invalid('REQUEST_INVALID', [{ code: 'FIELD_TYPE', path: '', message: 'must be of type object' }]);
  }
  const issues: ValidationIssue[] = Object.keys(body)
    .filter((field) => !FIELDS.has(field))
    .map((field) => ({
      code: 'FIELD_NOT_ALLOWED',
      path: `/${field}`,
      message: `field '${field}' is not allowed here`,
    }));
  const read = handoffIssues(body.handoff, isAgentId);
  issues.push(...read.issues);
  for (const field of TEXT_FIELDS) {
    const issue = textIssue(body, field);
    if (issue !== undefined) issues.push(issue);
  }
  if (read.handoff === undefined || read.receiver === undefined || issues.length > 0) {
    throw invalid(read.code ?? 'REQUEST_INVALID', issues);
  }
  return {
    handoff: read.handoff,
    receiver: read.receiver,
    desired_agent_type: body.desired_agent_type as string,
    reason: body.reason as string,
  };
}
