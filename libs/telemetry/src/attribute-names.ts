/**
 * OpenTelemetry's messaging semantic conventions (v1.27+ names), as Baton's Kafka spans carry
 * them. Incubating conventions are copied here rather than imported, as the semantic-conventions
 * package advises: a rename upstream must not change Baton's spans unannounced.
 */
export const MESSAGING = {
  system: 'messaging.system',
  destinationName: 'messaging.destination.name',
  partitionId: 'messaging.destination.partition.id',
  operationType: 'messaging.operation.type',
  operationName: 'messaging.operation.name',
  messageId: 'messaging.message.id',
  bodySize: 'messaging.message.body.size',
  consumerGroup: 'messaging.consumer.group.name',
  kafkaKey: 'messaging.kafka.message.key',
  kafkaOffset: 'messaging.kafka.offset',
} as const;

/** CloudEvents semantic conventions: a record's `ce_*` headers. */
export const CLOUDEVENTS = {
  eventId: 'cloudevents.event_id',
  eventType: 'cloudevents.event_type',
  eventSource: 'cloudevents.event_source',
  eventSubject: 'cloudevents.event_subject',
} as const;

/** Baton's own span attributes: the handoff a span is about. */
export const BATON = {
  taskId: 'baton.task_id',
  messageId: 'baton.message_id',
  correlationId: 'baton.correlation_id',
  handoffType: 'baton.handoff_type',
  issueCategory: 'baton.issue_category',
  senderId: 'baton.sender_id',
  recipientId: 'baton.recipient_id',
  /** The agent (or the router) that handles the handoff. */
  agentId: 'baton.agent_id',
  /** 1 for the first delivery of a message; more after retries. */
  attempt: 'baton.attempt',
  /** What became of a consumed message: processed, duplicate, retry or dead_lettered. */
  outcome: 'baton.outcome',
  /** The stable code of the error that failed the message. */
  errorCode: 'baton.error_code',
} as const;

/**
 * OpenTelemetry's GenAI semantic conventions, for model and tool calls (see withModelCall and
 * withToolCall). `gen_ai.provider.name` replaced `gen_ai.system` in semconv 1.37; Baton sets both,
 * since trace viewers and backends still key on the older one.
 */
export const GEN_AI = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  system: 'gen_ai.system',
  requestModel: 'gen_ai.request.model',
  responseModel: 'gen_ai.response.model',
  responseId: 'gen_ai.response.id',
  finishReasons: 'gen_ai.response.finish_reasons',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  agentName: 'gen_ai.agent.name',
} as const;
