/**
 * What the bench measured of signatures (issue 13): the shapes of its JSON and the readable lines,
 * pure, so the report, the JSON line and the tests agree. The measuring is in signature-costs.ts
 * (per message, in the bench's own process) and signature-full-path.ts (router and agent processes).
 */
import type { MicroTiming } from './micro-timing.js';
import { latencyLine, type LatencySummary } from './stats.js';

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
export interface SignedPathRun {
  /** Publish → the agent's COMPLETED outcome. */
  fullPath: LatencySummary;
  /** CPU (user + system) per handoff of the measured pass, per process (router, agent), in µs. */
  cpuUsPerHandoff: Record<string, number>;
}

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

/** The round whose throughput ratio is the median (rounds are odd in number); a round without one sorts last. */
export function medianSignedRound(rounds: readonly SignedPathRound[]): SignedPathRound {
  if (rounds.length === 0) throw new Error('no rounds to take a median of');
  const sorted = [...rounds].sort(
    (a, b) => (a.ratios.throughput ?? Number.POSITIVE_INFINITY) - (b.ratios.throughput ?? Number.POSITIVE_INFINITY),
  );
  return sorted[Math.floor((sorted.length - 1) / 2)] as SignedPathRound;
}

/**
 * CPU µs per handoff of each process, from its tick counts read before and after the pass; a
 * process missing from either reading (it ended) is left out.
 */
export function cpuUsPerHandoff(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  ticksPerSecond: number,
  handoffs: number,
): Record<string, number> {
  const perHandoff: Record<string, number> = {};
  for (const [name, end] of after) {
    const start = before.get(name);
    if (start !== undefined) perHandoff[name] = Math.round(((end - start) / ticksPerSecond / handoffs) * 1e6);
  }
  return perHandoff;
}

function ratio(a: number | undefined, b: number | undefined): number | null {
  return a === undefined || b === undefined || !Number.isFinite(a) || !(b > 0) ? null : a / b;
}

/** Signed over unsigned: throughput, and CPU per handoff of each process measured in both. */
export function signedPathRatios(off: SignedPathRun, required: SignedPathRun): Record<string, number | null> {
  const ratios: Record<string, number | null> = {
    throughput: ratio(required.fullPath.throughputPerS, off.fullPath.throughputPerS),
  };
  for (const name of Object.keys(off.cpuUsPerHandoff)) {
    ratios[`cpu.${name}`] = ratio(required.cpuUsPerHandoff[name], off.cpuUsPerHandoff[name]);
  }
  return ratios;
}

const WIDTH = 52;
const us = (value: number) => `${value.toFixed(1).padStart(8)} µs`;
const times = (value: number | null | undefined) =>
  value === null || value === undefined ? 'n/a' : `${value.toFixed(2)}x`;

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
  const { off, required, ratios } = result;
  const names = Object.keys(off.cpuUsPerHandoff);
  return [
    latencyLine('  signatures off', off.fullPath, WIDTH),
    latencyLine('  signatures required, every process sealing', required.fullPath, WIDTH),
    ...names.map(
      (name) =>
        `  ${`CPU per handoff, ${name}`.padEnd(WIDTH - 2)} off ${String(off.cpuUsPerHandoff[name]).padStart(6)} µs` +
        `  required ${String(required.cpuUsPerHandoff[name] ?? 'n/a').padStart(6)} µs` +
        `  ${times(ratios[`cpu.${name}`])}`,
    ),
    `  ${'throughput, required / off (median round)'.padEnd(WIDTH - 2)} ${times(ratios.throughput)}`,
    `  ${'each round, required / off'.padEnd(WIDTH - 2)} ${result.rounds
      .map((round) => `${times(round.ratios.throughput)} (${round.first} first)`)
      .join(', ')}`,
  ];
}
