/**
 * The catalogue of every error code Baton raises. A code is a stable contract: retry and
 * dead-letter logic, HTTP answers and operators' alerts key on it, so a code is never renamed or
 * reused. `retriable` tells the retry logic whether trying the same work again can succeed;
 * `httpStatus` is the status every service's HTTP answer carries for the code.
 * docs/errors.md documents each one; a test keeps the two in step.
 */
export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: {
    retriable: false,
    httpStatus: 400,
    summary: 'A handoff message does not satisfy its JSON Schema; `issues` lists every violation.',
  },
  UNSUPPORTED_PROTOCOL_VERSION: {
    retriable: false,
    httpStatus: 400,
    summary: 'The message declares a protocol_version whose major version this reader does not speak.',
  },
  UNKNOWN_HANDOFF_TYPE: {
    retriable: false,
    httpStatus: 400,
    summary: 'payload.handoff_type is not one of the types this protocol version defines.',
  },
  WIRE_FORMAT_INVALID: {
    retriable: false,
    httpStatus: 400,
    summary: 'The record value is not in the Confluent wire format (too short, or the magic byte is not 0).',
  },
  WIRE_UNKNOWN_SCHEMA_ID: {
    retriable: false,
    httpStatus: 400,
    summary: 'The schema id in the record is not known to the schema registry.',
  },
  WIRE_BODY_INVALID: {
    retriable: false,
    httpStatus: 400,
    summary: 'The Avro body cannot be decoded with its writer schema (truncated or corrupt bytes).',
  },
  WIRE_ENCODE_FAILED: {
    retriable: false,
    httpStatus: 400,
    summary: 'A message cannot be encoded with the Avro schema (a value does not fit its field).',
  },
  SCHEMA_INCOMPATIBLE: {
    retriable: false,
    httpStatus: 409,
    summary: "The schema registry refused a schema because it breaks the subject's compatibility level.",
  },
  REGISTRY_UNAVAILABLE: {
    retriable: true,
    httpStatus: 503,
    summary: 'The schema registry could not be reached or answered with a server error.',
  },
  REGISTRY_AUTH_FAILED: {
    retriable: false,
    httpStatus: 502,
    summary: 'The schema registry refused the configured credentials (HTTP 401 or 403).',
  },
  HANDOFF_EXPIRED: {
    retriable: false,
    httpStatus: 400,
    summary: 'The message arrived after its metadata.expiration_time; it is dead-lettered unprocessed.',
  },
  HANDLER_FAILED: {
    retriable: true,
    httpStatus: 500,
    summary: 'A message handler threw an error that is not a BatonError; it is retried as transient.',
  },
  RETRIES_EXHAUSTED: {
    retriable: false,
    httpStatus: 500,
    summary: 'A message failed transiently on every allowed attempt; details.lastErrorCode names the last failure.',
  },
  SIGNATURE_MISSING: {
    retriable: false,
    httpStatus: 401,
    summary: 'The message carries no signature, and the service reading it requires one (BATON_SIGNATURES=required).',
  },
  SIGNATURE_INVALID: {
    retriable: false,
    httpStatus: 401,
    summary:
      'The signature is malformed, or does not match the message: it was changed after signing or signed with another key.',
  },
  SIGNING_KEY_UNKNOWN: {
    retriable: false,
    httpStatus: 401,
    summary: 'The signature names a key id that is not in the trust store.',
  },
  SENDER_MISMATCH: {
    retriable: false,
    httpStatus: 403,
    summary: 'The signature is valid, but its key does not sign for the sender_id the message claims.',
  },
  OUTCOME_NOT_HOLDER: {
    retriable: false,
    httpStatus: 403,
    summary: 'An outcome event names an agent that does not hold the task: the tracker and the gateway do not fold it.',
  },
  NO_ROUTE: {
    retriable: false,
    httpStatus: 422,
    summary: 'The router found no rule, recipient or default route for a handoff.',
  },
  NO_LIVE_AGENT: {
    retriable: false,
    httpStatus: 503,
    summary:
      'The agent the router chose has registered but has no live instance (no heartbeat within the liveness window), and no fallback with one is configured.',
  },
  NOT_AUTHORIZED: {
    retriable: false,
    httpStatus: 403,
    summary:
      "The router's sender policy (AUTHORIZATION_POLICY) has no rule letting the handoff's metadata.sender_id send its handoff_type to an agent it was routed to; the message names sender, handoff_type and recipient.",
  },
  NO_HANDLER: {
    retriable: false,
    httpStatus: 422,
    summary: 'An agent received a handoff_type it has no handler for.',
  },
  NO_ESCALATION_TARGET: {
    retriable: false,
    httpStatus: 422,
    summary: 'A handler escalated, but the message names no escalate_to and the handler gave no target.',
  },
  CONFIG_INVALID: {
    retriable: false,
    httpStatus: 500,
    summary: 'A configuration value is missing or malformed; the process refuses to start.',
  },
  KAFKA_UNAVAILABLE: {
    retriable: true,
    httpStatus: 503,
    summary: 'No Kafka broker answered a metadata request before the deadline.',
  },
  KAFKA_AUTH_FAILED: {
    retriable: false,
    httpStatus: 502,
    summary:
      "The Kafka connection's security failed: the brokers refused the SASL credentials or mechanism, or TLS failed (the broker's certificate is not trusted or does not match its host name, or the broker refused the client certificate).",
  },
  KAFKA_NOT_AUTHORIZED: {
    retriable: false,
    httpStatus: 502,
    summary:
      'The brokers authenticated the client but its ACLs do not allow the operation (topic, group, transactional id or cluster authorization failed).',
  },
  INFRA_UNAVAILABLE: {
    retriable: false,
    httpStatus: 503,
    summary:
      'No Kafka could be provisioned: KAFKA_BROKERS is unset, no Docker engine answers, and Java or Maven is missing.',
  },
  INFRA_START_FAILED: {
    retriable: false,
    httpStatus: 503,
    summary: 'A local broker or registry process exited or did not become ready in time.',
  },
  REQUEST_INVALID: {
    retriable: false,
    httpStatus: 400,
    summary: "An HTTP request breaks its route's schema (body, query or path); `issues` lists every finding.",
  },
  UNAUTHENTICATED: {
    retriable: false,
    httpStatus: 401,
    summary: 'An HTTP request to the gateway carries no credential, or one that is not configured.',
  },
  FORBIDDEN: {
    retriable: false,
    httpStatus: 403,
    summary: 'The credential is valid but lacks the role the route needs (publisher to publish, operator to replay).',
  },
  TASK_NOT_FOUND: {
    retriable: false,
    httpStatus: 404,
    summary: 'No event of the task has been published to the events topic.',
  },
  DEAD_LETTER_NOT_FOUND: {
    retriable: false,
    httpStatus: 404,
    summary: 'No dead-letter topic, or no record at that partition and offset in it.',
  },
  REPLAY_TARGET_NOT_ALLOWED: {
    retriable: false,
    httpStatus: 400,
    summary: 'A replay names a target topic that is neither the source topic nor in the allowed list.',
  },
  REPLAY_TRUST_REFUSED: {
    retriable: false,
    httpStatus: 409,
    summary:
      'A replay of a dead letter refused for who sent it (a signature, sender or sender-policy code, or personal data in clear), or whose own signature or sender policy fails now; `details.reason_code` names that code.',
  },
  REPLAY_JOB_NOT_FOUND: {
    retriable: false,
    httpStatus: 404,
    summary: 'No replay job with that id on this gateway instance.',
  },
  REPLAY_STATE_CONFLICT: {
    retriable: false,
    httpStatus: 409,
    summary: 'A replay job cannot make that move from its state (start a running job, resume a stopped one).',
  },
  PENDING_TASK_NOT_FOUND: {
    retriable: false,
    httpStatus: 404,
    summary: 'The human agent has no open question for that task.',
  },
  ANSWER_INVALID: {
    retriable: false,
    httpStatus: 400,
    summary: "An operator's answer to the human agent is malformed (decision must be APPROVED or DENIED).",
  },
  ILLEGAL_TRANSITION: {
    retriable: false,
    httpStatus: 409,
    summary:
      "A handoff's state machine has no move for that event in that state: a late, duplicated or out-of-order message.",
  },
  CONTEXT_REF_INVALID: {
    retriable: false,
    httpStatus: 400,
    summary:
      "A context_ref's uri is not `kafka://<topic>/<partition>/<offset>`, or names a topic other than the context store's.",
  },
  CONTEXT_NOT_FOUND: {
    retriable: false,
    httpStatus: 404,
    summary:
      "A context_ref names records that are gone (below the partition's low watermark: retention) or chunks missing before the partition's end.",
  },
  CONTEXT_INTEGRITY_FAILED: {
    retriable: false,
    httpStatus: 422,
    summary: 'The bytes fetched for a context_ref differ from its size_bytes or sha256; `path` names the field.',
  },
  WIRE_RECORD_TYPE_UNEXPECTED: {
    retriable: false,
    httpStatus: 400,
    summary:
      'The record was written with a known schema of another record type than the topic carries (the events topic: outcome events, lifecycle messages, staged contexts).',
  },
  HANDOFF_TIMEOUT: {
    retriable: false,
    httpStatus: 504,
    summary:
      'One attempt of a negotiated handoff ran out of time: no accept, no context acknowledgement, or constraints.time_limit passed. The tracker then applies the failure_handling_strategy.',
  },
  HANDOFF_COMPLETE_FAILURE: {
    retriable: false,
    httpStatus: 502,
    summary:
      'The receiver of a negotiated handoff answered HandoffComplete FAILURE: it could not take the context over. The tracker then applies the failure_handling_strategy.',
  },
  HANDOFF_FAILED: {
    retriable: false,
    httpStatus: 502,
    summary:
      'Every option of a negotiated handoff is used up (retries, escalate_to, fallback_action, suggestions): the task ends FAILED and an ErrorNotification says why.',
  },
  PERSONAL_DATA_UNREADABLE: {
    retriable: false,
    httpStatus: 422,
    summary:
      'An encrypted personal field cannot be decrypted by a service holding the key ring: its key id is not in the ring even after re-reading the file, or its ciphertext or wrapped data key fails authentication (tampered, truncated, or encrypted under another key with the same id).',
  },
  PERSONAL_DATA_UNENCRYPTED: {
    retriable: false,
    httpStatus: 422,
    summary:
      'With BATON_PII_REQUIRED=true the router refused a handoff whose personal fields arrived in clear: it is forwarded to no inbox, and its dead letter holds those fields encrypted; the message names the fields, never their values.',
  },
  MODEL_UNAVAILABLE: {
    retriable: true,
    httpStatus: 503,
    summary:
      "The language model provider could not answer: rate limited (429), timed out, a server error, unreachable, or it refused the configured API key. Like a Kafka outage, it does not use up the message's retry_count.",
  },
  MODEL_REQUEST_REFUSED: {
    retriable: false,
    httpStatus: 502,
    summary:
      'The language model provider refused the request itself (an HTTP 4xx other than 401, 403, 408, 409 and 429): the conversation is too long for the model, or the model id is unknown.',
  },
  MODEL_STEP_LIMIT: {
    retriable: false,
    httpStatus: 500,
    summary:
      'A model agent called tools for as many steps as it may (BATON_MODEL_MAX_STEPS) without replying or handing off.',
  },
  ROUTE_NOT_FOUND: {
    retriable: false,
    httpStatus: 404,
    summary: 'An HTTP request names a method and path no route of the service answers.',
  },
  INTERNAL: {
    retriable: false,
    httpStatus: 500,
    summary:
      'An HTTP request failed on an unexpected error; the service logs it, the answer does not carry its internals.',
  },
} as const satisfies Record<string, { retriable: boolean; httpStatus: number; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/**
 * Failures of the platform a message needs, not of the message: consumers retry them for as long
 * as they last, with backoff, without using up the message's own retry_count.
 */
export const OUTAGE_CODES: ReadonlySet<string> = new Set<ErrorCode>([
  'KAFKA_UNAVAILABLE',
  'REGISTRY_UNAVAILABLE',
  'MODEL_UNAVAILABLE',
]);
