/**
 * What the bench measured of signatures (issue 13): the shapes of its JSON and the readable lines,
 * pure, so the report, the JSON line and the tests agree. The measuring is in signature-costs.ts
 * (per message, in the bench's own process) and signature-full-path.ts (router and agent processes).
 */
import type { MicroTiming } from './micro-timing.js';
import { LINE_WIDTH as WIDTH, pairedPathLines, times, type PathRun } from './path-rounds.js';

/**
 * The operations timed per message: the three of signatures, the two of seals (what a service
 * does instead where the trust store names the readers), the personal data stage's two (the other
 * stage a message may go through), and, as their baseline, the codec's two.
 */
export const SIGNATURE_OPERATIONS = [
  'canonicalJson',
  'sign',
  'verify',
  'seal',
  'checkSeal',
  'personalSeal',
  'personalOpen',
  'avroEncode',
  'avroDecode',
] as const;
export type SignatureOperation = (typeof SIGNATURE_OPERATIONS)[number];

export const SIGNATURE_OPERATION_LABELS: Readonly<Record<SignatureOperation, string>> = {
  canonicalJson: 'canonical JSON (RFC 8785) alone',
  sign: 'sign (canonical JSON + Ed25519)',
  verify: 'verify (canonical JSON + Ed25519 + trust store)',
  seal: 'seal for two readers (BLAKE2b digest + 2 MACs)',
  checkSeal: 'check a seal (BLAKE2b digest + MAC + trust store)',
  personalSeal: 'personal data stage: seal (encrypt the fields)',
  personalOpen: 'personal data stage: open (decrypt them)',
  avroEncode: 'baseline: Avro encode (codec, no stages)',
  avroDecode: 'baseline: Avro decode + validate',
};

/** Each stage's operation against the codec operation it travels with: sealing with encoding, opening with decoding. */
export const SIGNATURE_BASELINES: Readonly<Partial<Record<SignatureOperation, SignatureOperation>>> = {
  canonicalJson: 'avroEncode',
  sign: 'avroEncode',
  verify: 'avroDecode',
  seal: 'avroEncode',
  checkSeal: 'avroDecode',
  personalSeal: 'avroEncode',
  personalOpen: 'avroDecode',
};

export interface SignatureCostRow {
  /** Which message, e.g. `seed 000 escalation`. */
  message: string;
  bytes: {
    /** The RFC 8785 form of the unsigned message: what the signature covers. */
    canonicalJson: number;
    /** The record value, Confluent wire format: as it is, signed, and with its personal fields encrypted. */
    avro: number;
    avroSigned: number;
    avroEncrypted: number;
  };
  timings: Record<SignatureOperation, MicroTiming>;
  /** `<operation>/<baseline>` of the medians, per SIGNATURE_BASELINES. */
  ratios: Record<string, number>;
}

/** The micro-benchmark: how each operation was timed (micro-timing.ts), and a row per message. */
export interface SignatureCosts {
  warmupMs: number;
  roundMs: number;
  rounds: number;
  rows: SignatureCostRow[];
}

export function costRatios(timings: Readonly<Record<SignatureOperation, MicroTiming>>): Record<string, number> {
  const ratios: Record<string, number> = {};
  for (const [operation, baseline] of Object.entries(SIGNATURE_BASELINES) as [
    SignatureOperation,
    SignatureOperation,
  ][]) {
    ratios[`${operation}/${baseline}`] = timings[operation].medianUs / timings[baseline].medianUs;
  }
  return ratios;
}

export type SignatureMode = 'off' | 'required';

/** One pass of the full path with signatures off or required. */
export type SignedPathRun = PathRun;

/** One round: a pass of each pair, `first` having run first. */
export interface SignedPathRound {
  first: SignatureMode;
  off: SignedPathRun;
  required: SignedPathRun;
  /** required / off: `throughput`, and `cpu.<process>` per handoff. */
  ratios: Record<string, number | null>;
}

export interface SignedPathResult {
  /** Handoffs per pass. */
  handoffs: number;
  /** Handoffs through each pair before the rounds. */
  warmup: number;
  rounds: SignedPathRound[];
  /** The median round's (by its throughput ratio): what the report and the target read. */
  off: SignedPathRun;
  required: SignedPathRun;
  ratios: Record<string, number | null>;
}

const us = (value: number) => `${value.toFixed(1).padStart(8)} µs`;

/** Per message: sizes, then each operation's median µs (and spread), signatures against their baseline. */
export function signatureCostLines(rows: readonly SignatureCostRow[]): string[] {
  return rows.flatMap((row) => [
    `  ${row.message}: canonical JSON ${row.bytes.canonicalJson} B; Avro record ${row.bytes.avro} B unsigned, ` +
      `${row.bytes.avroSigned} B signed (+${row.bytes.avroSigned - row.bytes.avro} B), ` +
      `${row.bytes.avroEncrypted} B with its personal fields encrypted`,
    ...SIGNATURE_OPERATIONS.map((operation) => {
      const { medianUs, minUs, maxUs } = row.timings[operation];
      const baseline = SIGNATURE_BASELINES[operation];
      const against = baseline === undefined ? '' : `  ${times(row.ratios[`${operation}/${baseline}`])} of ${baseline}`;
      return (
        `    ${SIGNATURE_OPERATION_LABELS[operation].padEnd(WIDTH - 4)} ${us(medianUs)}` +
        `  (rounds ${minUs.toFixed(1)}–${maxUs.toFixed(1)})${against}`
      );
    }),
  ]);
}

/** The paired full-path pass: throughput and latency, CPU per handoff per process, signed over unsigned. */
export function signedPathLines(result: SignedPathResult): string[] {
  return pairedPathLines(result.off, result.required, result.ratios, result.rounds, {
    base: 'signatures off',
    other: 'signatures required, every process sealing',
    baseShort: 'off',
    otherShort: 'required',
  });
}
