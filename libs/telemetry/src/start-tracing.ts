import { diag, DiagLogLevel } from '@opentelemetry/api';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanExporter } from '@opentelemetry/sdk-trace-node';
import { diagLogger } from './diag-logger.js';
import { redactor } from './secrets.js';
import { headerValues, tracingConfig, type OtlpProtocol } from './tracing-config.js';
import type { TracingLogger } from './tracing-logger.js';
import { setTracingOn } from './tracing-state.js';

/**
 * How long a stopping service waits for its last spans to be exported: a collector that is down
 * must not hold up a drain that Kafka's session timeout and the orchestrator's grace period bound.
 */
export const TRACING_CLOSE_TIMEOUT_MS = 5_000;

export interface Tracing {
  readonly enabled: boolean;
  /** Exports the spans not yet sent, then stops; never rejects (a failed export is logged). Idempotent. */
  close(): Promise<void>;
}

export interface StartTracingOptions {
  /** service.name unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES names it. */
  serviceName: string;
  logger: TracingLogger;
}

const OFF: Tracing = { enabled: false, close: async () => undefined };

/**
 * The exporter of `protocol`, each reading its endpoint, headers, timeout and certificates from the
 * OTEL_EXPORTER_OTLP_* variables itself. Imported only when chosen: gRPC's brings @grpc/grpc-js.
 */
async function otlpExporter(protocol: OtlpProtocol): Promise<SpanExporter> {
  switch (protocol) {
    case 'http/protobuf':
      return new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter();
    case 'http/json':
      return new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter();
    case 'grpc':
      return new (await import('@opentelemetry/exporter-trace-otlp-grpc')).OTLPTraceExporter();
  }
}

/**
 * Starts exporting this process's spans over OTLP (http/protobuf, http/json or grpc) when the
 * OTEL_* variables ask for it (see tracingConfig); otherwise starts nothing and every span stays
 * the API's no-op one. Registers the global tracer provider, W3C propagator and async context, so
 * spans made through the global @opentelemetry/api (the Vercel AI SDK's) land in the same traces.
 */
export async function startTracing(options: StartTracingOptions): Promise<Tracing> {
  const config = tracingConfig(process.env);
  if (!config.enabled) {
    options.logger.info({ event: 'tracing.off', reason: config.reason }, 'tracing off');
    return OFF;
  }
  const redact = redactor([
    ...headerValues(process.env.OTEL_EXPORTER_OTLP_HEADERS),
    ...headerValues(process.env.OTEL_EXPORTER_OTLP_TRACES_HEADERS),
  ]);
  diag.setLogger(diagLogger(options.logger, redact), DiagLogLevel.WARN);
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': options.serviceName }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(await otlpExporter(config.protocol))],
  });
  provider.register();
  setTracingOn(true);
  options.logger.info(
    {
      event: 'tracing.on',
      service_name: resource.attributes['service.name'],
      protocol: config.protocol,
      endpoint: config.tracesEndpoint,
      headers: config.headerNames,
      sampler: config.sampler,
    },
    `exporting traces over OTLP (${config.protocol})`,
  );
  let closing: Promise<void> | undefined;
  return {
    enabled: true,
    close() {
      closing ??= closeWithin(provider, options.logger, redact);
      return closing;
    },
  };
}

async function closeWithin(
  provider: NodeTracerProvider,
  logger: TracingLogger,
  redact: (text: string) => string,
): Promise<void> {
  setTracingOn(false);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), TRACING_CLOSE_TIMEOUT_MS);
  });
  try {
    const outcome = await Promise.race([provider.shutdown().then(() => 'flushed' as const), deadline]);
    if (outcome === 'timeout') {
      logger.warn(
        { event: 'tracing.close_timeout', timeout_ms: TRACING_CLOSE_TIMEOUT_MS },
        'the last spans were not exported in time',
      );
    }
  } catch (error) {
    logger.warn(
      { event: 'tracing.close_failed', err: redact(error instanceof Error ? error.message : String(error)) },
      'the last spans could not be exported',
    );
  } finally {
    clearTimeout(timer);
  }
}
