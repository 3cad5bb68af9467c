/**
 * `npx tsx bench/field-encryption-bench.ts [N]`: the cost of the personal data stage per message,
 * on the hot path of every service holding the key ring. Encodes and decodes the seed example N
 * times (default 20,000) with and without the stage, in memory (no broker), and prints µs per
 * message for each step.
 */
import { createRequire } from 'node:module';
import {
  fixedKeyRing,
  generateKeyRingEntry,
  parseKeyRing,
  personalDataStages,
  keyRingFileText,
} from '@baton/field-encryption';
import type { HandoffMessage } from '@baton/protocol';
import { memorySchemaRegistry, serviceCodecs } from '@baton/wire';

const require = createRequire(import.meta.url);
const seed = require('@baton/schemas/fixtures/seed-000-escalation-full.json') as HandoffMessage;
const count = Number(process.argv[2] ?? 20_000);

const keyRing = fixedKeyRing(parseKeyRing(keyRingFileText([generateKeyRingEntry('pii-bench')]), 'bench'));
const registry = memorySchemaRegistry();
const plain = serviceCodecs(registry);
const encrypting = serviceCodecs(registry, personalDataStages(keyRing));
await Promise.all([plain.register(), encrypting.register()]);
const [stage] = personalDataStages(keyRing).handoff;

async function perMessageUs(run: () => unknown): Promise<number> {
  for (let i = 0; i < Math.min(2_000, count); i += 1) await run();
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) await run();
  return Number(process.hrtime.bigint() - start) / 1_000 / count;
}

const plainBytes = plain.codec.encode(seed);
const sealedBytes = encrypting.codec.encode(seed);
const sealed = stage!.seal(seed);
const rows: [string, number][] = [
  ['seal (encrypt 6 fields, 1 data key)', await perMessageUs(() => stage!.seal(seed))],
  ['open (decrypt 6 fields)', await perMessageUs(() => stage!.open(sealed))],
  ['encode, no stage', await perMessageUs(() => plain.codec.encode(seed))],
  ['encode with the stage', await perMessageUs(() => encrypting.codec.encode(seed))],
  ['decode + validate, no stage', await perMessageUs(() => plain.codec.decode(plainBytes))],
  ['decode + decrypt + validate', await perMessageUs(() => encrypting.codec.decode(sealedBytes))],
];
console.log(
  `personal data stage, ${count} messages (seed example; ${plainBytes.length} B clear, ${sealedBytes.length} B encrypted)`,
);
for (const [name, us] of rows) console.log(`  ${name.padEnd(38)} ${us.toFixed(1).padStart(7)} µs/message`);
