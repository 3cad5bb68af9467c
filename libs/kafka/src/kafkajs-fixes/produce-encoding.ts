import { kafkajsModuleExports, replaceBeforeKafkajsLoads, type ModuleReplacement } from './module-replacement.js';

/**
 * kafkajs 2.2.4 spends most of a producer's time making garbage. In a router profile under load,
 * garbage collection took a third of the busy time and kafkajs's produce encoding another third;
 * two causes, both fixed here, where kafkajs loads them:
 *
 * 1. Grouping a send's messages by partition (src/producer/groupMessagesPerPartition.js) copies the
 *    partition's array for every message (`[...current, message]`): quadratic in the messages per
 *    partition. A Baton transaction holds up to a thousand messages' outputs, markers and events.
 *    Upstream: https://github.com/tulios/kafkajs/pull/1576 (open; kafkajs has no release after 2.2.4).
 *    The replacement groups in one pass, in the same order.
 *
 * 2. Every Encoder starts with a zero-filled 512-byte Buffer of its own (src/protocol/encoder.js,
 *    from https://github.com/tulios/kafkajs/pull/811), and one is made per record and per header: a
 *    Baton record with its ten CloudEvents headers costs eleven, about 5.6 KiB allocated off the
 *    heap for a record of a few hundred bytes. Every varint, several per record, allocates an
 *    array and a Buffer to copy from. The replacement Encoder starts from Node's shared buffer pool
 *    (Buffer.allocUnsafe: no zero fill, no allocation of its own below 4 KiB) and grows the same
 *    way; varints are written in place. An Encoder only ever hands out the bytes it has written
 *    (`buffer` is `buf` up to `offset`), so no byte it did not write leaves it.
 *
 * Both modules are taken by kafkajs's others when they load, so the replacements have to be in
 * Node's module cache first: this module is imported by @baton/kafka before kafkajs itself, as
 * read-committed.ts is. Tied to the pinned version like the other fixes.
 */

interface Message {
  partition?: number;
}

type Partitioner = (args: { topic: string; partitionMetadata: unknown[]; message: Message }) => number;

/** src/producer/groupMessagesPerPartition.js, in one pass: the messages of each partition, in their order. */
export function groupMessagesPerPartition({
  topic,
  partitionMetadata,
  messages,
  partitioner,
}: {
  topic: string;
  partitionMetadata: unknown[];
  messages: Message[];
  partitioner: Partitioner;
}): Record<number, Message[]> {
  const grouped: Record<number, Message[]> = {};
  if (partitionMetadata.length === 0) return grouped;
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message });
    (grouped[partition] ??= []).push(message);
  }
  return grouped;
}

interface KafkajsEncoder {
  buf: Buffer;
  offset: number;
  ensureAvailable(length: number): void;
}

type EncoderClass = (new (initialSize?: number) => KafkajsEncoder) & { nextPowerOfTwo(value: number): number };

const UNSIGNED_INT32_MAX_NUMBER = 0xffffff80;
const OTHER_BITS = 0x7f;
const MOST_SIGNIFICANT_BIT = 0x80;
const MAX_VARINT_BYTES = 5;

/** kafkajs's Encoder, starting from the shared pool and writing varints in place. */
export function pooledEncoder(Encoder: EncoderClass): EncoderClass {
  class PooledEncoder extends Encoder {
    constructor(initialSize = 511) {
      // kafkajs's constructor allocates nextPowerOfTwo(0) = 1 byte, on V8's heap.
      super(0);
      this.buf = Buffer.allocUnsafe(Encoder.nextPowerOfTwo(initialSize));
    }

    override ensureAvailable(length: number): void {
      if (this.offset + length <= this.buf.length) return;
      const grown = Buffer.allocUnsafe(Encoder.nextPowerOfTwo(this.offset + length));
      this.buf.copy(grown, 0, 0, this.offset);
      this.buf = grown;
    }

    writeUVarInt(value: number): this {
      this.ensureAvailable(MAX_VARINT_BYTES);
      let rest = value;
      while ((rest & UNSIGNED_INT32_MAX_NUMBER) !== 0) {
        this.buf[this.offset++] = (rest & OTHER_BITS) | MOST_SIGNIFICANT_BIT;
        rest >>>= 7;
      }
      this.buf[this.offset++] = rest & OTHER_BITS;
      return this;
    }
  }
  return PooledEncoder;
}

const GROUPING_MODULE = 'kafkajs/src/producer/groupMessagesPerPartition.js';
const ENCODER_MODULE = 'kafkajs/src/protocol/encoder.js';
/**
 * The modules that take the two: cached, they hold kafkajs's own. (Not kafkajs's index: an ES module
 * importing kafkajs puts the index in the cache when it links, before anything of kafkajs runs.)
 */
const TAKERS = ['kafkajs/src/producer/sendMessages.js', 'kafkajs/src/protocol/request.js'];

export type ProduceEncodingPatch = ModuleReplacement;

let outcome: ProduceEncodingPatch | undefined;

/** Puts both replacements in kafkajs's place, before kafkajs loads. Idempotent. */
export function patchProduceEncoding(): ProduceEncodingPatch {
  outcome ??= replaceBeforeKafkajsLoads('produce encoding', TAKERS, (original) => ({
    [GROUPING_MODULE]: groupMessagesPerPartition,
    [ENCODER_MODULE]: pooledEncoder(original(ENCODER_MODULE) as EncoderClass),
  }));
  return outcome;
}

/** What kafkajs's modules get for `module` now (tests compare it with the replacements). */
export function kafkajsModule(module: 'grouping' | 'encoder'): unknown {
  return kafkajsModuleExports(module === 'grouping' ? GROUPING_MODULE : ENCODER_MODULE);
}

patchProduceEncoding();
