import { readWireFormat } from '@baton/wire';

/** A record as read from Kafka: what `TopicReader` hands over. */
export interface RawRecord {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer | null;
  headers: Record<string, string>;
  /** Milliseconds since the epoch, as text. */
  timestamp: string;
}

/** `outcome`, `lifecycle` and `staged` are the three record types of the events topic. */
export type RecordKind = 'handoff' | 'outcome' | 'lifecycle' | 'staged' | 'json' | 'tombstone' | 'undecodable';

/** A record decoded for printing; `--json` prints it as it is, one per line. */
export interface DecodedRecord {
  topic: string;
  partition: number;
  offset: string;
  timestamp: string;
  key: string | null;
  headers: Record<string, string>;
  kind: RecordKind;
  /** The decoded value; for an undecodable one that is well-framed Avro but invalid, its unchecked decoding. */
  value?: unknown;
  error?: { code: string; message: string };
  /** The raw bytes of an undecodable value. */
  value_base64?: string;
}

/** The part of an Avro codec the decoder uses (`HandoffCodec`). */
export interface ValueDecoder {
  decode(bytes: Buffer): Promise<unknown>;
  decodeUnchecked(bytes: Buffer): Promise<unknown>;
}

/** A decoder that tells each record's kind along with its value. */
interface KindedDecoder<K extends RecordKind> {
  decode(bytes: Buffer): Promise<{ kind: K; value: unknown }>;
  decodeUnchecked(bytes: Buffer): Promise<unknown>;
}

/** The events topic's decoder (`EventsCodec`): which of its three record types each record is. */
export type EventsDecoder = KindedDecoder<'outcome' | 'lifecycle' | 'staged'>;

/** Made on first use, so topics of JSON records need no schema registry. */
export interface DecoderSource {
  handoffs(): Promise<ValueDecoder>;
  events(): Promise<EventsDecoder>;
}

/**
 * The events topic (`<prefix>.events`) carries outcome events, lifecycle messages and staged
 * contexts; every other Avro topic handoffs.
 */
export function isEventsTopic(topic: string): boolean {
  return topic === 'events' || topic.endsWith('.events');
}

/** A topic's Avro records decoded with their kind: the events topic's say theirs, all others are handoffs. */
async function recordDecoderOf(topic: string, decoders: DecoderSource): Promise<KindedDecoder<RecordKind>> {
  if (isEventsTopic(topic)) return decoders.events();
  const handoffs = await decoders.handoffs();
  return {
    decode: async (bytes) => ({ kind: 'handoff', value: await handoffs.decode(bytes) }),
    decodeUnchecked: (bytes) => handoffs.decodeUnchecked(bytes),
  };
}

function codedError(error: unknown): { code: string; message: string } {
  const coded = error as { code?: unknown; message?: unknown } | undefined;
  return {
    code: typeof coded?.code === 'string' ? coded.code : 'WIRE_BODY_INVALID',
    message: typeof coded?.message === 'string' ? coded.message : String(error),
  };
}

function parseJson(value: Buffer, contentType: string | undefined): { ok: true; value: unknown } | { ok: false } {
  const text = value.toString('utf8');
  const looksLikeJson = /^\s*[[{"]/.test(text) || contentType?.includes('json') === true;
  if (!looksLikeJson) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Decodes one record: Confluent-framed Avro with the registry codec (on the events topic an
 * outcome event, a lifecycle message or a staged context, handoffs elsewhere), JSON as JSON (ledger, audit, processed ids), and anything else, or
 * Avro that fails to decode or validate, as `undecodable` with the error's code.
 */
export async function decodeRecord(record: RawRecord, decoders: DecoderSource): Promise<DecodedRecord> {
  const base = {
    topic: record.topic,
    partition: record.partition,
    offset: record.offset,
    timestamp: new Date(Number(record.timestamp)).toISOString(),
    key: record.key,
    headers: record.headers,
  };
  if (record.value === null) return { ...base, kind: 'tombstone' };
  const bytes = record.value;
  if (bytes[0] !== 0) {
    const json = parseJson(bytes, record.headers['content-type']);
    if (json.ok) return { ...base, kind: 'json', value: json.value };
  }
  const undecodable = (error: unknown, value?: unknown): DecodedRecord => ({
    ...base,
    kind: 'undecodable',
    ...(value === undefined ? {} : { value }),
    error: codedError(error),
    value_base64: bytes.toString('base64'),
  });
  try {
    readWireFormat(bytes);
  } catch (error) {
    return undecodable(error);
  }
  const decoder = await recordDecoderOf(record.topic, decoders);
  try {
    return { ...base, ...(await decoder.decode(bytes)) };
  } catch (error) {
    const unchecked = await decoder.decodeUnchecked(bytes).catch(() => undefined);
    return undecodable(error, unchecked);
  }
}

function field(value: unknown, ...path: string[]): string | undefined {
  let current = value;
  for (const name of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[name];
  }
  return current === undefined || current === null ? undefined : String(current);
}

/** A printable preview of bytes that are not what they should be. */
function preview(base64: string | undefined): string {
  const bytes = Buffer.from(base64 ?? '', 'base64');
  const text = bytes
    .subarray(0, 40)
    .toString('latin1')
    .replace(/[^\x20-\x7e]/g, '.');
  return `${bytes.length} bytes "${text}${bytes.length > 40 ? '…' : ''}"`;
}

/** One line per record: where it is, its key, and what it holds. */
export function formatRecordLine(record: DecodedRecord): string {
  const where = `${record.timestamp}  ${record.topic}/${record.partition}@${record.offset}  key=${record.key ?? '-'}`;
  const { value } = record;
  switch (record.kind) {
    case 'handoff': {
      const type = field(value, 'payload', 'handoff_type');
      const route = `${field(value, 'metadata', 'sender_id')} -> ${field(value, 'metadata', 'recipient_id')}`;
      return `${where}  handoff ${type} ${route} message_id=${field(value, 'metadata', 'message_id')}`;
    }
    case 'outcome': {
      const target = field(value, 'target');
      const code = field(value, 'error_code');
      const detail = field(value, 'detail');
      return (
        `${where}  outcome ${field(value, 'agent_id')}: ${field(value, 'outcome')} ${field(value, 'handoff_type')}` +
        `${target ? ` -> ${target}` : ''}${code ? ` [${code}]` : detail ? ` (${detail})` : ''}`
      );
    }
    case 'lifecycle': {
      const route = `${field(value, 'sender_id')} -> ${field(value, 'receiver_id')}`;
      const correlation = field(value, 'correlation_id');
      return (
        `${where}  lifecycle ${field(value, 'message_type')} ${route} message_id=${field(value, 'message_id')}` +
        `${correlation ? ` correlation_id=${correlation}` : ''}`
      );
    }
    case 'staged':
      return (
        `${where}  staged ${field(value, 'sender_id')} wants ${field(value, 'terms', 'desired_agent_type')}` +
        ` request_message_id=${field(value, 'request_message_id')}`
      );
    case 'json':
      return `${where}  json ${JSON.stringify(value)}`;
    case 'tombstone':
      return `${where}  tombstone`;
    case 'undecodable':
      return `${where}  undecodable ${record.error?.code}: ${record.error?.message} (${preview(record.value_base64)})`;
  }
}
