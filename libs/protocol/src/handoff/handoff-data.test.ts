import { describe, expect, expectTypeOf, it } from 'vitest';
import { loadHandoffSchemas, type JsonSchema } from '../validation/schema-files.js';
import type { HandoffDataByType, NotificationData, TaskProgressStatus } from './handoff-data.js';
import type { HandoffMessage } from './handoff-message.js';
import { HANDOFF_TYPES, PRIORITIES, type HandoffType } from './handoff-type.js';

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** Every field of T marked as T declares it; a field left out, added or marked wrongly does not compile. */
type Fields<T> = { [K in keyof T]-?: K extends RequiredKeys<T> ? 'required' : 'optional' };

/** The fields of each type's data as the TypeScript interfaces declare them. */
const DECLARED: { [T in HandoffType]: Fields<HandoffDataByType[T]> } = {
  TASK_TRANSFER: {
    issue_category: 'required',
    task_summary: 'required',
    transfer_reason: 'optional',
    desired_agent_type: 'optional',
    customer_info: 'optional',
    attributes: 'optional',
  },
  REQUEST_INFORMATION: { requested_info_keys: 'required', query_parameters: 'optional' },
  PROVIDE_INFORMATION: {
    in_reply_to: 'optional',
    provided_info: 'required',
    missing_info_keys: 'optional',
    source: 'optional',
  },
  ESCALATION: {
    issue_category: 'required',
    severity: 'required',
    customer_info: 'required',
    technical_details: 'required',
  },
  NOTIFICATION: {
    event_type: 'required',
    message: 'required',
    severity: 'optional',
    issue_category: 'optional',
    details: 'optional',
  },
  STATUS_UPDATE: { status: 'required', details: 'optional', progress_percent: 'optional', issue_category: 'optional' },
  APPROVAL_REQUEST: {
    action: 'required',
    justification: 'required',
    issue_category: 'optional',
    subject_id: 'optional',
    amount: 'optional',
    approver_role: 'optional',
    decision_deadline: 'optional',
    customer_info: 'optional',
  },
};

type ObjectSchema = JsonSchema & { properties: Record<string, { enum?: string[] }>; required?: string[] };
const schemas = loadHandoffSchemas().data as Record<HandoffType, ObjectSchema>;

// The handlers' types are only as true as the schemas that validate the data at run time.
describe('the data types of the handoff types', () => {
  it.each(HANDOFF_TYPES)(
    '%s declares the fields of its JSON Schema, required where the schema requires them',
    (type) => {
      const fields = Object.entries(DECLARED[type]);
      expect(Object.keys(schemas[type].properties).sort()).toEqual(fields.map(([name]) => name).sort());
      expect([...(schemas[type].required ?? [])].sort()).toEqual(
        fields
          .filter(([, mark]) => mark === 'required')
          .map(([name]) => name)
          .sort(),
      );
    },
  );

  it('types the enumerated fields with the schemas’ values', () => {
    const statuses = ['IN_PROGRESS', 'WAITING_FOR_INPUT', 'COMPLETED', 'FAILED'] as const;
    const levels = ['INFO', 'WARNING', 'CRITICAL'] as const;
    expectTypeOf<(typeof statuses)[number]>().toEqualTypeOf<TaskProgressStatus>();
    expectTypeOf<(typeof levels)[number]>().toEqualTypeOf<NonNullable<NotificationData['severity']>>();
    expectTypeOf<(typeof PRIORITIES)[number]>().toEqualTypeOf<HandoffDataByType['ESCALATION']['severity']>();
    expect(schemas.STATUS_UPDATE.properties.status?.enum).toEqual([...statuses]);
    expect(schemas.NOTIFICATION.properties.severity?.enum).toEqual([...levels]);
    expect(schemas.ESCALATION.properties.severity?.enum).toEqual([...PRIORITIES]);
  });

  it('narrows payload.data by payload.handoff_type', () => {
    const read = (message: HandoffMessage) =>
      message.payload.handoff_type === 'ESCALATION' ? message.payload.data.customer_info.user_id : undefined;
    expectTypeOf(read).returns.toEqualTypeOf<string | undefined>();
    expectTypeOf<HandoffMessage<'STATUS_UPDATE'>['payload']['data']>().toEqualTypeOf<
      HandoffDataByType['STATUS_UPDATE']
    >();
  });
});
