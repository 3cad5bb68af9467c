import { describe, expect, it } from 'vitest';
import type { MicroTiming } from './micro-timing.js';
import { pathRatios } from './path-rounds.js';
import {
  costRatios,
  signatureCostLines,
  signedPathLines,
  type SignatureCostRow,
  type SignedPathRun,
} from './signature-figures.js';
import { basePass, slowerPass } from './path-run.test-helper.js';

const timing = (medianUs: number): MicroTiming => ({
  medianUs,
  minUs: medianUs * 0.9,
  maxUs: medianUs * 1.2,
  iterations: 1000,
  rounds: 9,
});

const timings = {
  canonicalJson: timing(10),
  sign: timing(40),
  verify: timing(80),
  seal: timing(4),
  checkSeal: timing(8),
  personalSeal: timing(30),
  personalOpen: timing(16),
  avroEncode: timing(20),
  avroDecode: timing(160),
};

describe('costRatios', () => {
  it('sets canonical JSON and signing against the encode, verifying against the decode', () => {
    expect(costRatios(timings)).toEqual({
      'canonicalJson/avroEncode': 0.5,
      'sign/avroEncode': 2,
      'verify/avroDecode': 0.5,
      'seal/avroEncode': 0.2,
      'checkSeal/avroDecode': 0.05,
      'personalSeal/avroEncode': 1.5,
      'personalOpen/avroDecode': 0.1,
    });
  });
});

const off: SignedPathRun = basePass;
const required: SignedPathRun = slowerPass;

describe('signatureCostLines', () => {
  it('gives the sizes, then each operation with its spread and its ratio to the codec operation it goes with', () => {
    const row: SignatureCostRow = {
      message: 'seed 000 escalation',
      bytes: { canonicalJson: 1993, avro: 1375, avroSigned: 1475, avroEncrypted: 1900 },
      timings,
      ratios: costRatios(timings),
    };
    const lines = signatureCostLines([row]);
    expect(lines[0]).toBe(
      '  seed 000 escalation: canonical JSON 1993 B; Avro record 1375 B unsigned, 1475 B signed (+100 B), ' +
        '1900 B with its personal fields encrypted',
    );
    expect(lines[2]).toMatch(
      /^ {4}sign \(canonical JSON \+ Ed25519\) +40\.0 µs {2}\(rounds 36\.0–48\.0\) {2}2\.00x of avroEncode$/,
    );
    expect(lines[3]).toMatch(/verify .* 80\.0 µs .* 0\.50x of avroDecode$/);
    expect(lines[4]).toMatch(
      /^ {4}seal for two readers \(BLAKE2b digest \+ 2 MACs\) +4\.0 µs .* 0\.20x of avroEncode$/,
    );
    expect(lines[5]).toMatch(/^ {4}check a seal .* 8\.0 µs .* 0\.05x of avroDecode$/);
    expect(lines[6]).toMatch(/^ {4}personal data stage: seal .* 30\.0 µs .* 1\.50x of avroEncode$/);
    expect(lines[9]).toMatch(/^ {4}baseline: Avro decode \+ validate +160\.0 µs {2}\(rounds 144\.0–192\.0\)$/);
    expect(lines).toHaveLength(10);
  });
});

const round = (first: 'off' | 'required', requiredPerS: number) => {
  const slower = { ...required, fullPath: { ...required.fullPath, throughputPerS: requiredPerS } };
  return { first, off, required: slower, ratios: pathRatios(off, slower) };
};

describe('signedPathLines', () => {
  it('gives both passes of the median round, the CPU per handoff of each process, and every round', () => {
    const lines = signedPathLines({
      handoffs: 10_000,
      warmup: 10_000,
      rounds: [round('off', 800), round('required', 700), round('off', 900)],
      off,
      required,
      ratios: pathRatios(off, required),
    });
    expect(lines[0]).toMatch(/^ {2}signatures off +1000\/s {2}p50 +120 ms/);
    expect(lines[1]).toMatch(/^ {2}signatures required, every process sealing +800\/s/);
    expect(lines[2]).toMatch(/^ {2}CPU per handoff, router +off +250 µs {2}required +350 µs {2}1\.40x$/);
    expect(lines[3]).toMatch(/^ {2}CPU per handoff, bench_agent +off +600 µs {2}required +750 µs {2}1\.25x$/);
    expect(lines[4]).toMatch(/^ {2}throughput, required \/ off \(median round\) +0\.80x$/);
    expect(lines[5]).toMatch(
      /^ {2}each round, required \/ off +0\.80x \(off first\), 0\.70x \(required first\), 0\.90x \(off first\)$/,
    );
  });
});
