import { describe, expect, it } from 'vitest';
import { headerNames, headerValues, tracingConfig, withoutCredentials } from './tracing-config.js';

describe('tracingConfig', () => {
  it('is off when no OTLP endpoint is set', () => {
    expect(tracingConfig({ OTEL_SERVICE_NAME: 'router' })).toEqual({
      enabled: false,
      reason: 'no OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    });
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }).enabled).toBe(false);
  });

  it('is off when OTEL_SDK_DISABLED is true or OTEL_TRACES_EXPORTER is none, endpoint or not', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318' };
    expect(tracingConfig({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' })).toEqual({
      enabled: false,
      reason: 'OTEL_SDK_DISABLED is true',
    });
    expect(tracingConfig({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toEqual({
      enabled: false,
      reason: 'OTEL_TRACES_EXPORTER is none',
    });
    expect(tracingConfig({ ...endpoint, OTEL_SDK_DISABLED: 'false' }).enabled).toBe(true);
  });

  it('derives the traces URL from the base endpoint, or takes the signal-specific one as it is', () => {
    expect(tracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318/' })).toEqual({
      enabled: true,
      protocol: 'http/protobuf',
      tracesEndpoint: 'http://jaeger:4318/v1/traces',
      headerNames: [],
      sampler: 'parentbased_always_on',
    });
    expect(
      tracingConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://jaeger:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/otlp/traces',
        OTEL_TRACES_SAMPLER: 'traceidratio',
      }),
    ).toMatchObject({ tracesEndpoint: 'https://collector.example/otlp/traces', sampler: 'traceidratio' });
  });

  it('takes the protocol from the traces variable, then the general one; gRPC takes the endpoint as it is', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317' };
    expect(tracingConfig({ ...endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toMatchObject({
      protocol: 'grpc',
      tracesEndpoint: 'http://collector:4317',
    });
    expect(
      tracingConfig({
        ...endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toMatchObject({ protocol: 'http/json', tracesEndpoint: 'http://collector:4317/v1/traces' });
    expect(() => tracingConfig({ ...endpoint, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'GRPC' })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', path: '/env/OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' }),
    );
  });

  it('shows the header names and never their values, nor credentials in the URL', () => {
    const config = tracingConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'https://user:s3cret@collector.example',
      OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=KEY-123,x-team=baton',
      OTEL_EXPORTER_OTLP_TRACES_HEADERS: 'x-api-key=KEY-456',
    });
    expect(config).toEqual({
      enabled: true,
      protocol: 'http/protobuf',
      tracesEndpoint: 'https://collector.example/v1/traces',
      headerNames: ['x-api-key', 'x-team'],
      sampler: 'parentbased_always_on',
    });
    expect(JSON.stringify(config)).not.toMatch(/KEY-|s3cret/);
  });
});

describe('the exporter headers', () => {
  it('split into names and values, values also URL-decoded as the SDK sends them', () => {
    const raw = 'Authorization=Bearer%20abc,x-key=k=1, =x, broken';
    expect(headerNames(raw)).toEqual(['Authorization', 'x-key', 'broken']);
    expect(headerValues(raw)).toEqual(['Bearer%20abc', 'Bearer abc', 'k=1', 'k=1', 'x', 'x']);
    expect(headerValues(undefined)).toEqual([]);
  });
});

describe('withoutCredentials', () => {
  it('keeps a URL without credentials as it is', () => {
    expect(withoutCredentials('http://jaeger:4318/v1/traces')).toBe('http://jaeger:4318/v1/traces');
    expect(withoutCredentials('not a url')).toBe('[unparsable URL]');
  });
});
