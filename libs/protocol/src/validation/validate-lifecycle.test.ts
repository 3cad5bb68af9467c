import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { LIFECYCLE_MESSAGE_TYPES } from '../lifecycle/lifecycle-message.js';
import { HandoffValidationError } from './handoff-validation-error.js';
import { parseLifecycleMessage, validateLifecycleMessage } from './validate-lifecycle.js';

const require = createRequire(import.meta.url);
const folder = dirname(require.resolve('@baton/schemas/fixtures/lifecycle/heartbeat.example.json'));
const examples = readdirSync(folder).filter((file) => file.endsWith('.example.json'));
const example = (name: string): Record<string, any> =>
  structuredClone(require(`@baton/schemas/fixtures/lifecycle/${name}.example.json`)) as Record<string, any>;

describe('the lifecycle examples', () => {
  it('cover every message type', () => {
    const types = new Set(
      examples.map((file) => (require(`${folder}/${file}`) as { message_type: string }).message_type),
    );
    expect([...types].sort()).toEqual([...LIFECYCLE_MESSAGE_TYPES].sort());
  });

  it.each(examples)('%s is valid', (file) => {
    expect(validateLifecycleMessage(require(`${folder}/${file}`))).toEqual([]);
  });
});

describe('validateLifecycleMessage', () => {
  it('refuses a value that is not an object', () => {
    expect(validateLifecycleMessage([])).toEqual([
      { code: 'FIELD_TYPE', path: '', message: 'a lifecycle message must be a JSON object' },
    ]);
  });

  it('reports every envelope finding with its own path', () => {
    const message = example('handoff-request');
    message.message_id = 'not-a-uuid';
    message.timestamp = 'yesterday';
    delete message.sender_id;
    message.routing_hint = 'fast';
    expect(validateLifecycleMessage(message)).toEqual([
      { code: 'FIELD_REQUIRED', path: '/sender_id', message: "required field 'sender_id' is missing" },
      { code: 'FIELD_NOT_ALLOWED', path: '/routing_hint', message: "field 'routing_hint' is not allowed here" },
      { code: 'FIELD_FORMAT', path: '/message_id', message: 'must be a valid uuid' },
      { code: 'FIELD_FORMAT', path: '/timestamp', message: 'must be a valid date-time' },
    ]);
  });

  it('checks the payload against the schema of its message_type', () => {
    const message = example('handoff-request');
    delete message.payload.reason;
    message.payload.priority = 'URGENT';
    expect(validateLifecycleMessage(message)).toEqual([
      { code: 'FIELD_REQUIRED', path: '/payload/reason', message: "required field 'reason' is missing" },
      { code: 'FIELD_ENUM', path: '/payload/priority', message: 'must be one of LOW, MEDIUM, HIGH, CRITICAL' },
    ]);
  });

  it('refuses an unknown message_type and does not guess a payload schema', () => {
    const message = example('heartbeat');
    message.message_type = 'HandoffTeleport';
    expect(validateLifecycleMessage(message)).toEqual([
      {
        code: 'FIELD_ENUM',
        path: '/message_type',
        message: `must be one of ${LIFECYCLE_MESSAGE_TYPES.join(', ')}`,
      },
    ]);
  });

  it.each(['handoff-accept', 'handoff-reject', 'task-context-transfer', 'handoff-complete'])(
    'requires the envelope correlation_id of the reply %s',
    (name) => {
      const message = example(name);
      delete message.correlation_id;
      delete message.payload.correlation_id;
      expect(validateLifecycleMessage(message)).toEqual([
        { code: 'FIELD_REQUIRED', path: '/correlation_id', message: "required field 'correlation_id' is missing" },
      ]);
    },
  );

  it('does not report a payload copy as a mismatch when the envelope field is already missing', () => {
    const message = example('handoff-accept');
    delete message.correlation_id;
    expect(validateLifecycleMessage(message).map((issue) => issue.path)).toEqual(['/correlation_id']);
  });

  it('accepts any non-empty correlation_id, as real senders use ids like flow-xyz-123', () => {
    const message = example('handoff-complete');
    message.correlation_id = 'flow-xyz-123';
    message.payload.correlation_id = 'flow-xyz-123';
    expect(validateLifecycleMessage(message)).toEqual([]);
  });

  it("requires task_id for messages about a task, not for a Heartbeat or an agent's error", () => {
    const request = example('task-status-update');
    delete request.task_id;
    delete request.payload.task_id;
    expect(validateLifecycleMessage(request)).toEqual([
      { code: 'FIELD_REQUIRED', path: '/task_id', message: "required field 'task_id' is missing" },
    ]);
    const error = example('error-notification');
    delete error.task_id;
    delete error.payload.task_id;
    expect(validateLifecycleMessage(error)).toEqual([]);
  });

  it('accepts the common form: task_id and correlation_id in the envelope only', () => {
    for (const name of ['handoff-request', 'handoff-accept', 'handoff-reject', 'task-context-transfer']) {
      const message = example(name);
      delete message.payload.task_id;
      delete message.payload.correlation_id;
      expect(validateLifecycleMessage(message)).toEqual([]);
    }
  });

  it('refuses payload copies that differ from the envelope', () => {
    const message = example('handoff-accept');
    message.payload.correlation_id = '00000000-0000-4000-8000-000000000000';
    message.payload.task_id = 'task-99';
    expect(validateLifecycleMessage(message)).toEqual([
      {
        code: 'FIELD_MISMATCH',
        path: '/payload/task_id',
        message: "must equal /task_id ('task-12345')",
      },
      {
        code: 'FIELD_MISMATCH',
        path: '/payload/correlation_id',
        message: "must equal /correlation_id ('3f9c1a52-7d4e-4b8a-9c61-2e5f8a0b7d13')",
      },
    ]);
  });

  it('refuses a payload task_id that the envelope lacks', () => {
    const message = example('error-notification');
    delete message.task_id;
    expect(validateLifecycleMessage(message)).toEqual([
      {
        code: 'FIELD_MISMATCH',
        path: '/payload/task_id',
        message: 'repeats /task_id, which the message does not have',
      },
    ]);
  });

  it('refuses correlation_id in the payload of a HandoffRequest once, as not allowed', () => {
    const message = example('handoff-request');
    message.payload.correlation_id = 'x';
    expect(validateLifecycleMessage(message)).toEqual([
      {
        code: 'FIELD_NOT_ALLOWED',
        path: '/payload/correlation_id',
        message: "field 'correlation_id' is not allowed here",
      },
    ]);
  });

  it("refuses a Heartbeat whose agent_id is not its sender's", () => {
    const message = example('heartbeat');
    message.payload.agent_id = 'AgentC';
    expect(validateLifecycleMessage(message)).toEqual([
      {
        code: 'FIELD_MISMATCH',
        path: '/payload/agent_id',
        message: "must equal /sender_id ('AgentB_TechnicalSupport')",
      },
    ]);
  });

  describe('TaskContextTransfer', () => {
    it('refuses a transfer with neither context_data nor context_ref, as one finding', () => {
      const message = example('task-context-transfer');
      delete message.payload.context_data;
      expect(validateLifecycleMessage(message)).toEqual([
        {
          code: 'FIELD_REQUIRED',
          path: '/payload/context_data',
          message: 'the context is required, by value (context_data) or by reference (context_ref)',
        },
      ]);
    });

    it('refuses a transfer with both', () => {
      const message = example('task-context-transfer');
      message.payload.context_ref = example('task-context-transfer-by-reference').payload.context_ref;
      expect(validateLifecycleMessage(message)).toEqual([
        {
          code: 'FIELD_NOT_ALLOWED',
          path: '/payload/context_ref',
          message: 'context_data and context_ref exclude each other: send the context by value or by reference',
        },
      ]);
    });

    it('checks every field of a context_ref', () => {
      const message = example('task-context-transfer-by-reference');
      const ref = message.payload.context_ref;
      ref.uri = 'not a uri';
      ref.sha256 = 'ABC';
      ref.size_bytes = -1;
      delete ref.content_type;
      ref.expires = 'never';
      expect(validateLifecycleMessage(message)).toEqual([
        {
          code: 'FIELD_REQUIRED',
          path: '/payload/context_ref/content_type',
          message: "required field 'content_type' is missing",
        },
        {
          code: 'FIELD_NOT_ALLOWED',
          path: '/payload/context_ref/expires',
          message: "field 'expires' is not allowed here",
        },
        { code: 'FIELD_FORMAT', path: '/payload/context_ref/uri', message: 'must be a valid uri' },
        { code: 'FIELD_PATTERN', path: '/payload/context_ref/sha256', message: 'must match ^[0-9a-f]{64}$' },
        { code: 'FIELD_OUT_OF_RANGE', path: '/payload/context_ref/size_bytes', message: 'must be >= 0' },
      ]);
    });

    it("keeps context_data open for the task's own fields but types the protocol's", () => {
      const message = example('task-context-transfer');
      message.payload.context_data.anything = { nested: [1, 2] };
      expect(validateLifecycleMessage(message)).toEqual([]);
      message.payload.context_data.goals = 'fix it';
      expect(validateLifecycleMessage(message)).toEqual([
        { code: 'FIELD_TYPE', path: '/payload/context_data/goals', message: 'must be of type array' },
      ]);
    });
  });

  describe('protocol_version', () => {
    it('refuses another major with its own code and nothing else', () => {
      const message = example('handoff-request');
      message.protocol_version = '2.0.0';
      delete message.payload;
      expect(validateLifecycleMessage(message)).toEqual([
        {
          code: 'UNSUPPORTED_PROTOCOL_VERSION',
          path: '/protocol_version',
          message: 'protocol_version 2.0.0 is not supported: this reader speaks 1.x',
        },
      ]);
    });

    it("accepts a newer minor's unknown fields, in the envelope and in the payload, and keeps them", () => {
      const message = example('handoff-accept');
      message.protocol_version = '1.2.0';
      message.trace_state = 'abc';
      message.payload.capacity_left = 3;
      expect(parseLifecycleMessage(message)).toEqual(message);
      message.payload.estimated_handoff_time = -5;
      expect(validateLifecycleMessage(message).map((issue) => issue.path)).toEqual(['/payload/estimated_handoff_time']);
    });
  });
});

describe('parseLifecycleMessage', () => {
  it('returns a frozen copy and leaves the input alone', () => {
    const input = example('task-context-transfer');
    const parsed = parseLifecycleMessage(input);
    expect(parsed).toEqual(input);
    expect(parsed).not.toBe(input);
    expect(Object.isFrozen(parsed.payload)).toBe(true);
    expect(Object.isFrozen(input.payload)).toBe(false);
  });

  it('throws a HandoffValidationError carrying every issue', () => {
    const input = example('handoff-reject');
    delete input.correlation_id;
    input.payload.reason = '';
    try {
      parseLifecycleMessage(input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HandoffValidationError);
      const validation = error as HandoffValidationError;
      expect(validation.code).toBe('VALIDATION_FAILED');
      expect(validation.issues.map((issue) => [issue.code, issue.path])).toEqual([
        ['FIELD_REQUIRED', '/correlation_id'],
        ['FIELD_OUT_OF_RANGE', '/payload/reason'],
      ]);
    }
  });
});
