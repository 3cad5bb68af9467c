/**
 * Whether a service exports traces, decided from the standard OTEL_* variables alone. The SDK
 * reads the rest itself (sampler, resource attributes, exporter headers and timeouts, batch sizes);
 * this decides only on or off, and what the start-up log line may show.
 */
export type TracingConfig =
  | { enabled: false; reason: string }
  | {
      enabled: true;
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

/** The URL spans are posted to, as the OTLP/HTTP exporter derives it: a base endpoint gets /v1/traces. */
function tracesUrl(env: Env): string | undefined {
  const signal = setting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  if (signal !== undefined) return signal;
  const base = setting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  return base === undefined ? undefined : `${base.replace(/\/+$/, '')}/v1/traces`;
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
 * and neither OTEL_SDK_DISABLED=true nor OTEL_TRACES_EXPORTER=none says otherwise.
 */
export function tracingConfig(env: Env): TracingConfig {
  if (setting(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') {
    return { enabled: false, reason: 'OTEL_SDK_DISABLED is true' };
  }
  if (setting(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase() === 'none') {
    return { enabled: false, reason: 'OTEL_TRACES_EXPORTER is none' };
  }
  const url = tracesUrl(env);
  if (url === undefined) {
    return { enabled: false, reason: 'no OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' };
  }
  return {
    enabled: true,
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
