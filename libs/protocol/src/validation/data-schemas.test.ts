import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { validateHandoff } from './validate-handoff.js';

const require = createRequire(import.meta.url);
const example = (name: string): Record<string, any> =>
  structuredClone(require(`@baton/schemas/fixtures/${name}.example.json`)) as Record<string, any>;

describe('the data schema of each handoff type', () => {
  it.each([
    'task-transfer',
    'request-information',
    'provide-information',
    'notification',
    'status-update',
    'approval-request',
  ])('accepts the %s example', (name) => {
    expect(validateHandoff(example(name))).toEqual([]);
  });

  it('TASK_TRANSFER needs an issue_category to route on', () => {
    const message = example('task-transfer');
    delete message.payload.data.issue_category;
    expect(validateHandoff(message)).toEqual([
      {
        code: 'FIELD_REQUIRED',
        path: '/payload/data/issue_category',
        message: "required field 'issue_category' is missing",
      },
    ]);
  });

  it('REQUEST_INFORMATION refuses fields the protocol does not define', () => {
    const message = example('request-information');
    message.payload.data.requested_by = 'someone';
    expect(validateHandoff(message)).toEqual([
      {
        code: 'FIELD_NOT_ALLOWED',
        path: '/payload/data/requested_by',
        message: "field 'requested_by' is not allowed here",
      },
    ]);
  });

  it('PROVIDE_INFORMATION needs provided_info to be an object', () => {
    const message = example('provide-information');
    message.payload.data.provided_info = 'ACTIVE';
    expect(validateHandoff(message)).toEqual([
      { code: 'FIELD_TYPE', path: '/payload/data/provided_info', message: 'must be of type object' },
    ]);
  });

  it('NOTIFICATION severity uses the ErrorNotification levels', () => {
    const message = example('notification');
    message.payload.data.severity = 'HIGH';
    expect(validateHandoff(message)).toEqual([
      { code: 'FIELD_ENUM', path: '/payload/data/severity', message: 'must be one of INFO, WARNING, CRITICAL' },
    ]);
  });

  it('STATUS_UPDATE progress is a percentage', () => {
    const message = example('status-update');
    message.payload.data.progress_percent = 140;
    expect(validateHandoff(message)).toEqual([
      { code: 'FIELD_OUT_OF_RANGE', path: '/payload/data/progress_percent', message: 'must be <= 100' },
    ]);
  });

  it('APPROVAL_REQUEST amounts carry an ISO 4217 currency', () => {
    const message = example('approval-request');
    message.payload.data.amount.currency = 'dollars';
    expect(validateHandoff(message)).toEqual([
      { code: 'FIELD_PATTERN', path: '/payload/data/amount/currency', message: 'must match ^[A-Z]{3}$' },
    ]);
  });

  it('shares customer_info between types: a name is required everywhere', () => {
    const message = example('approval-request');
    delete message.payload.data.customer_info.name;
    expect(validateHandoff(message).map((issue) => issue.path)).toEqual(['/payload/data/customer_info/name']);
  });
});
