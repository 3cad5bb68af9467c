/**
 * Tracing with OpenTelemetry for Baton's services.
 *
 * A service's main starts it once (runService does, for every service): `startTracing` reads the
 * standard OTEL_* variables and exports over OTLP (http/protobuf, http/json or grpc, as
 * OTEL_EXPORTER_OTLP_PROTOCOL says) when an endpoint is set; with none, nothing
 * starts and every span below is the API's no-op. The chassis makes the spans of each handoff:
 * `process <topic>` (CONSUMER) → `handle <handoff_type>` (INTERNAL, the active context while the
 * handler runs) → `create <topic>` (PRODUCER) per record written, whose context is the record's
 * `traceparent`, so the next service's spans continue the same trace.
 *
 * Code inside a handler adds its own spans as children of the handle span:
 * - `withSpan(name, { kind, attributes }, fn)`: any span; a throw is recorded and rethrown.
 * - `withModelCall({ provider, model }, fn)` and `recordModelResponse(span, { inputTokens, outputTokens })`:
 *   a model call per the GenAI conventions (`chat <model>`, CLIENT).
 * - `withToolCall({ name, callId }, fn)`: a tool call (`execute_tool <name>`, INTERNAL).
 * - `GEN_AI`, `BATON`, `MESSAGING`: the attribute names.
 * Spans made through the global @opentelemetry/api (the Vercel AI SDK's `experimental_telemetry`)
 * join the same trace, since startTracing registers the global provider and async context.
 */
export { startTracing, TRACING_CLOSE_TIMEOUT_MS, type StartTracingOptions, type Tracing } from './start-tracing.js';
export { OTLP_PROTOCOLS, tracingConfig, type OtlpProtocol, type TracingConfig } from './tracing-config.js';
export type { TracingLogger } from './tracing-logger.js';
export { isTracingOn } from './tracing-state.js';
export { withSpan, recordFailure, tracer, type WithSpanOptions } from './with-span.js';
export {
  withModelCall,
  withToolCall,
  recordModelResponse,
  modelResponseAttributes,
  type ModelCall,
  type TokenUsage,
  type ToolCall,
} from './gen-ai-spans.js';
export {
  startConsumeSpan,
  startProduceSpan,
  runInSpan,
  withTraceparent,
  withCreateSpans,
  withSendSpan,
  type TracedRecord,
  type ConsumedTracedRecord,
} from './messaging-spans.js';
export { contextFromTraceparent, traceparentOf } from './traceparent-context.js';
export { BATON, CLOUDEVENTS, GEN_AI, MESSAGING } from './attribute-names.js';
// The API's types a caller of withSpan needs, so it need not depend on @opentelemetry/api itself.
export { SpanKind, SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
