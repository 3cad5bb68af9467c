import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import type { OtlpProtocol } from '@baton/telemetry';

/** One span as an OTLP export carried it, with its resource's service.name. */
export interface ReceivedSpan {
  serviceName: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind numbers: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** OTLP's status codes: 0 unset, 1 ok, 2 error. */
  statusCode: number;
}

/** A collector of its own for a test: where to point OTEL_EXPORTER_OTLP_ENDPOINT, and what arrived. */
export interface OtlpReceiver {
  /** The base URL: HTTP exporters post to <endpoint>/v1/traces, gRPC ones call the trace service there. */
  endpoint: string;
  /** What to set OTEL_EXPORTER_OTLP_PROTOCOL to. */
  protocol: OtlpProtocol;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}

interface KeyValue {
  key: string;
  value: AnyValue;
}

interface TracesRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
        status?: { code?: number };
      }[];
    }[];
  }[];
}

function plain(value: AnyValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.doubleValue !== undefined) return value.doubleValue;
  throw new Error(`an attribute value this receiver does not read: ${JSON.stringify(value)}`);
}

function attributesOf(list: KeyValue[] = []): Record<string, string | number | boolean> {
  return Object.fromEntries(list.map(({ key, value }) => [key, plain(value)]));
}

function spansOf(request: TracesRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const serviceName = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        serviceName,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
        statusCode: span.status?.code ?? 0,
      })),
    );
  });
}

/**
 * The part of OTLP's trace service (opentelemetry/proto/collector/trace/v1 and what it uses) this
 * receiver reads; protobuf skips the fields left out.
 */
const OTLP_TRACES_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { repeated Span spans = 2; }
message Span {
  bytes trace_id = 1;
  bytes span_id = 2;
  bytes parent_span_id = 4;
  string name = 5;
  int32 kind = 6;
  repeated KeyValue attributes = 9;
  Status status = 15;
}
message Status { int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; }
}
`;

const exportRequest = protobuf
  .parse(OTLP_TRACES_PROTO, { keepCase: false })
  .root.lookupType('otlp.ExportTraceServiceRequest');

/** A protobuf export in the JSON export's shape: ids in hex, enums and 64-bit integers as numbers. */
function fromProtobuf(bytes: Uint8Array): TracesRequest {
  const decoded = exportRequest.toObject(exportRequest.decode(bytes), {
    longs: Number,
    defaults: false,
  }) as TracesRequest;
  for (const resourceSpans of decoded.resourceSpans ?? []) {
    for (const scope of resourceSpans.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        span.traceId = Buffer.from(span.traceId as unknown as Uint8Array).toString('hex');
        span.spanId = Buffer.from(span.spanId as unknown as Uint8Array).toString('hex');
        span.parentSpanId =
          span.parentSpanId === undefined
            ? ''
            : Buffer.from(span.parentSpanId as unknown as Uint8Array).toString('hex');
      }
    }
  }
  return decoded;
}

/** An OTLP/HTTP receiver: POST /v1/traces in the protocol's content type, anything else 415. */
async function startHttpReceiver(spans: ReceivedSpan[], protocol: 'http/json' | 'http/protobuf') {
  const contentType = protocol === 'http/json' ? 'application/json' : 'application/x-protobuf';
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url !== '/v1/traces' || request.headers['content-type'] !== contentType) {
        response.writeHead(415).end();
        return;
      }
      const body = Buffer.concat(chunks);
      spans.push(
        ...spansOf(
          protocol === 'http/json' ? (JSON.parse(body.toString('utf8')) as TracesRequest) : fromProtobuf(body),
        ),
      );
      // An empty ExportTraceServiceResponse, in either encoding.
      response.writeHead(200, { 'content-type': contentType }).end(protocol === 'http/json' ? '{}' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** An OTLP/gRPC receiver: the trace service's Export, its messages decoded here rather than by grpc-js. */
async function startGrpcReceiver(spans: ReceivedSpan[]) {
  const server = new grpc.Server();
  const raw = (bytes: Buffer) => bytes;
  server.addService(
    {
      Export: {
        path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        requestStream: false,
        responseStream: false,
        requestSerialize: raw,
        requestDeserialize: raw,
        responseSerialize: raw,
        responseDeserialize: raw,
      },
    },
    {
      Export: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        spans.push(...spansOf(fromProtobuf(call.request)));
        callback(null, Buffer.alloc(0));
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => server.forceShutdown(),
  };
}

/**
 * A collector of its own for a test, on a free local port, taking traces in one OTLP protocol (the
 * specification's default, http/protobuf, unless told): an exporter sending another fails loudly.
 */
export async function startOtlpReceiver(protocol: OtlpProtocol = 'http/protobuf'): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const receiver = protocol === 'grpc' ? await startGrpcReceiver(spans) : await startHttpReceiver(spans, protocol);
  return { ...receiver, protocol, spans };
}
