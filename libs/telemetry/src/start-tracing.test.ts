import { trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTracing } from './start-tracing.js';
import { isTracingOn } from './tracing-state.js';

function capturingLogger() {
  const lines: { facts: Record<string, unknown>; message: string }[] = [];
  const line = (facts: Record<string, unknown>, message: string) => lines.push({ facts, message });
  return { lines, logger: { info: line, warn: line, error: line } };
}

afterEach(() => vi.unstubAllEnvs());

describe('startTracing', () => {
  it('starts nothing without an endpoint, and says why', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', '');
    vi.stubEnv('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', '');
    const { lines, logger } = capturingLogger();
    const tracing = await startTracing({ serviceName: 'router', logger });
    expect(tracing.enabled).toBe(false);
    expect(isTracingOn()).toBe(false);
    expect(lines).toEqual([
      {
        facts: {
          event: 'tracing.off',
          reason: 'no OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
        },
        message: 'tracing off',
      },
    ]);
    await tracing.close();
  });

  it('exports with an endpoint, names the service, never logs a header value, and stops at close', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://127.0.0.1:9');
    vi.stubEnv('OTEL_EXPORTER_OTLP_HEADERS', 'x-api-key=sk-secret-1');
    vi.stubEnv('OTEL_SERVICE_NAME', '');
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', 'deployment.environment.name=test');
    const { lines, logger } = capturingLogger();
    const tracing = await startTracing({ serviceName: 'agent.sales_agent', logger });
    expect(tracing.enabled).toBe(true);
    expect(isTracingOn()).toBe(true);
    expect(trace.getTracer('t').startSpan('s').isRecording()).toBe(true);
    expect(lines).toEqual([
      {
        facts: {
          event: 'tracing.on',
          service_name: 'agent.sales_agent',
          protocol: 'http/protobuf',
          endpoint: 'http://127.0.0.1:9/v1/traces',
          headers: ['x-api-key'],
          sampler: 'parentbased_always_on',
        },
        message: 'exporting traces over OTLP (http/protobuf)',
      },
    ]);
    await Promise.all([tracing.close(), tracing.close()]);
    expect(isTracingOn()).toBe(false);
    expect(JSON.stringify(lines)).not.toContain('sk-secret-1');
  });

  it('refuses a protocol OTLP does not have, naming the variable, rather than tracing nowhere', async () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', 'http://127.0.0.1:9');
    vi.stubEnv('OTEL_EXPORTER_OTLP_PROTOCOL', 'http');
    const { logger } = capturingLogger();
    await expect(startTracing({ serviceName: 'router', logger })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      path: '/env/OTEL_EXPORTER_OTLP_PROTOCOL',
      message: 'OTEL_EXPORTER_OTLP_PROTOCOL must be one of http/protobuf, http/json, grpc, not "http"',
    });
    expect(isTracingOn()).toBe(false);
  });
});
