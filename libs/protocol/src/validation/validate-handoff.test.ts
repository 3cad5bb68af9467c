import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { HandoffValidationError } from './handoff-validation-error.js';
import { parseHandoff, validateHandoff } from './validate-handoff.js';

const require = createRequire(import.meta.url);
const fixture = (name: string): Record<string, any> =>
  structuredClone(require(`@baton/schemas/fixtures/${name}`)) as Record<string, any>;

describe('validateHandoff', () => {
  it('accepts both reference escalation examples', () => {
    expect(validateHandoff(fixture('seed-000-escalation-full.json'))).toEqual([]);
    expect(validateHandoff(fixture('seed-000-escalation-valid.json'))).toEqual([]);
  });

  it('rejects the invalid reference example with the path to customer_info.name', () => {
    expect(validateHandoff(fixture('seed-000-escalation-invalid.json'))).toEqual([
      {
        code: 'FIELD_REQUIRED',
        path: '/payload/data/customer_info/name',
        message: "required field 'name' is missing",
      },
    ]);
  });

  it('reports every issue of the envelope and of the data, each with its own path', () => {
    const message = fixture('seed-000-escalation-full.json');
    delete message.metadata.sender_id;
    message.metadata.priority = 'URGENT';
    message.metadata.timestamp = 'yesterday';
    message.metadata.surprise = 1;
    message.payload.data.severity = 3;
    expect(validateHandoff(message)).toEqual([
      { code: 'FIELD_REQUIRED', path: '/metadata/sender_id', message: "required field 'sender_id' is missing" },
      { code: 'FIELD_NOT_ALLOWED', path: '/metadata/surprise', message: "field 'surprise' is not allowed here" },
      { code: 'FIELD_FORMAT', path: '/metadata/timestamp', message: 'must be a valid date-time' },
      { code: 'FIELD_ENUM', path: '/metadata/priority', message: 'must be one of LOW, MEDIUM, HIGH, CRITICAL' },
      { code: 'FIELD_TYPE', path: '/payload/data/severity', message: 'must be of type string' },
      { code: 'FIELD_ENUM', path: '/payload/data/severity', message: 'must be one of LOW, MEDIUM, HIGH, CRITICAL' },
    ]);
  });

  it('gives an unknown handoff_type its own code and skips the data schema', () => {
    const message = fixture('seed-000-escalation-valid.json');
    message.payload.handoff_type = 'TELEPORT';
    const issues = validateHandoff(message);
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ code: 'UNKNOWN_HANDOFF_TYPE', path: '/payload/handoff_type' });
  });

  it('accepts a recipient list and refuses an empty one', () => {
    const message = fixture('seed-000-escalation-valid.json');
    message.metadata.recipient_id = ['sales_agent', 'human_agent'];
    expect(validateHandoff(message)).toEqual([]);
    message.metadata.recipient_id = [];
    expect(validateHandoff(message)).toEqual([
      { code: 'FIELD_OUT_OF_RANGE', path: '/metadata/recipient_id', message: 'must NOT have fewer than 1 items' },
    ]);
  });

  it('refuses a value that is not an object', () => {
    expect(validateHandoff('hello')).toEqual([
      { code: 'FIELD_TYPE', path: '', message: 'a handoff message must be a JSON object' },
    ]);
  });

  it('reads retry_count with the minimum the protocol meant', () => {
    const message = fixture('seed-000-escalation-valid.json');
    message.instructions.failure_handling_strategy = { retry_count: -1 };
    expect(validateHandoff(message)).toEqual([
      {
        code: 'FIELD_OUT_OF_RANGE',
        path: '/instructions/failure_handling_strategy/retry_count',
        message: 'must be >= 0',
      },
    ]);
  });
});

describe('protocol_version', () => {
  it('refuses another major with its own code and nothing else', () => {
    const message = fixture('seed-000-escalation-valid.json');
    message.metadata.protocol_version = '2.0.0';
    delete message.context;
    const issues = validateHandoff(message);
    expect(issues).toEqual([
      {
        code: 'UNSUPPORTED_PROTOCOL_VERSION',
        path: '/metadata/protocol_version',
        message: 'protocol_version 2.0.0 is not supported: this reader speaks 1.x',
      },
    ]);
    expect(() => parseHandoff(message)).toThrowError(
      expect.objectContaining({ code: 'UNSUPPORTED_PROTOCOL_VERSION', retriable: false }),
    );
  });

  it('accepts a newer minor and keeps its unknown optional fields', () => {
    const message = fixture('seed-000-escalation-valid.json');
    message.metadata.protocol_version = '1.3.0';
    message.metadata.tenant_id = 'acme';
    message.payload.data.customer_info.loyalty_tier = 'gold';
    message.instructions.deadline_policy = { mode: 'soft' };
    const parsed = parseHandoff(message);
    expect(parsed).toEqual(message);
    expect((parsed.metadata as Record<string, unknown>).tenant_id).toBe('acme');
  });

  it('still checks the known fields of a newer minor', () => {
    const message = fixture('seed-000-escalation-valid.json');
    message.metadata.protocol_version = '1.3.0';
    delete message.payload.data.customer_info.name;
    expect(validateHandoff(message).map((issue) => issue.path)).toEqual(['/payload/data/customer_info/name']);
  });

  it('reads the same minor strictly: unknown fields are refused', () => {
    const message = fixture('seed-000-escalation-valid.json');
    message.metadata.protocol_version = '1.0.7';
    message.metadata.tenant_id = 'acme';
    expect(validateHandoff(message).map((issue) => issue.code)).toEqual(['FIELD_NOT_ALLOWED']);
  });
});

describe('parseHandoff', () => {
  it('returns a frozen copy and leaves the input alone', () => {
    const input = fixture('seed-000-escalation-full.json');
    const parsed = parseHandoff(input);
    expect(parsed).toEqual(input);
    expect(parsed).not.toBe(input);
    expect(Object.isFrozen(parsed.payload.data)).toBe(true);
    expect(Object.isFrozen(input)).toBe(false);
    expect(() => {
      (parsed.metadata as { sender_id: string }).sender_id = 'mallory';
    }).toThrow(TypeError);
  });

  it('throws a HandoffValidationError carrying every issue and the first path', () => {
    const input = fixture('seed-000-escalation-invalid.json');
    try {
      parseHandoff(input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(HandoffValidationError);
      const validation = error as HandoffValidationError;
      expect(validation.code).toBe('VALIDATION_FAILED');
      expect(validation.path).toBe('/payload/data/customer_info/name');
      expect(validation.message).toBe(
        "invalid handoff message: /payload/data/customer_info/name: required field 'name' is missing",
      );
      expect(validation.issues).toHaveLength(1);
    }
  });
});
