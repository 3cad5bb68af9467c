import { BatonError } from '@baton/errors';

/** OTLP's transports, as OTEL_EXPORTER_OTLP_PROTOCOL names them. */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** The specification's default; Jaeger and the OpenTelemetry Collector take it on 4318. */
const DEFAULT_PROTOCOL: OtlpProtocol = 'http/protobuf';

/**
 * Whether a service exports traces, and over which OTLP transport, decided from the standard
 * OTEL_* variables alone. The SDK's exporter reads the rest itself (exporter headers, timeouts and
 * certificates, sampler, resource attributes, batch sizes); this decides on or off, the protocol,
 * and what the start-up log line may show.
 */
export type TracingConfig =
  | { enabled: false; reason: string }
  | {
      enabled: true;
      /** OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL, else http/protobuf. */
      protocol: OtlpProtocol;
      /** Where spans go, credentials in the URL removed: safe to log. */
      tracesEndpoint: string;
      /** The names of the OTEL_EXPORTER_OTLP_*HEADERS sent with each export, never their values. */
      headerNames: string[];
      /** OTEL_TRACES_SAMPLER, or the SDK's default. */
      sampler: string;
    };

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_SAMPLER = 'parentbased_always_on';

function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/**
 * Where spans go, as the protocol's exporter derives it: over HTTP a base endpoint gets
 * /v1/traces; gRPC names the service in each call, so its endpoint is the base as it is.
 */
function tracesUrl(env: Env, protocol: OtlpProtocol): string | undefined {
  const signal = setting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (signal !== undefined) return signal;
  const base = setting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (base === undefined || protocol === 'grpc') return base;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** The protocol the variables name; CONFIG_INVALID naming the variable for one OTLP has not. */
function protocolOf(env: Env): OtlpProtocol {
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const value = setting(env, name);
    if (value === undefined) continue;
    if ((OTLP_PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol;
    throw new BatonError('CONFIG_INVALID', `${name} must be one of ${OTLP_PROTOCOLS.join(', ')}, not "${value}"`, {
      path: `/env/${name}`,
    });
  }
  return DEFAULT_PROTOCOL;
}

/** A URL with any user:password@ taken out, for logs. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '[unparsable URL]';
  }
}

/** The names of `key=value,key2=value2` (OTEL_EXPORTER_OTLP_HEADERS), without the values. */
export function headerNames(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((pair) => pair.split('=')[0]?.trim() ?? '')
    .filter((name) => name !== '');
}

/** The values of `key=value,...`, URL-decoded as the SDK sends them: what logs must never show. */
export function headerValues(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw.split(',').flatMap((pair) => {
    const at = pair.indexOf('=');
    if (at < 0) return [];
    const value = pair.slice(at + 1).trim();
    if (value === '') return [];
    try {
      return [value, decodeURIComponent(value)];
    } catch {
      return [value];
    }
  });
}

/**
 * On when an OTLP endpoint is set (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or OTEL_EXPORTER_OTLP_ENDPOINT)
 * and neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none says otherwise. A protocol
 * other than OTLP's three stops the start with CONFIG_INVALID, rather than tracing nowhere.
 */
export function tracingConfig(env: Env): TracingConfig {
  if (setting(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') {
    return { enabled: false, reason: 'OTEL_SDK_DISABLED is true' };
  }
  if (setting(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase() === 'none') {
    return { enabled: false, reason: 'OTEL_TRACES_EXPORTER is none' };
  }
  const protocol = protocolOf(env);
  const url = tracesUrl(env, protocol);
  if (url === undefined) {
    return { enabled: false, reason: 'no OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' };
  }
  return {
    enabled: true,
    protocol,
    tracesEndpoint: withoutCredentials(url),
    headerNames: [
      ...new Set([
        ...headerNames(setting(env, 'OTEL_EXPORTER_OTLP_HEADERS')),
        ...headerNames(setting(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS')),
      ]),
    ],
    sampler: setting(env, 'OTEL_TRACES_SAMPLER') ?? DEFAULT_SAMPLER,
  };
}
