import { describe, expect, it } from 'vitest';
import type { MicroTiming } from './micro-timing.js';
import {
  costRatios,
  cpuUsPerHandoff,
  signatureCostLines,
  medianSignedRound,
  signedPathLines,
  signedPathRatios,
  type SignatureCostRow,
  type SignedPathRun,
} from './signature-figures.js';
import type { LatencySummary } from './stats.js';

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

describe('cpuUsPerHandoff', () => {
  it('turns the ticks of the pass into µs per handoff, per process', () => {
    const before = new Map([
      ['router', 1_000],
      ['bench_agent', 2_000],
    ]);
    const after = new Map([
      ['router', 1_250],
      ['bench_agent', 2_600],
    ]);
    // 2.5 s and 6 s of CPU over 10,000 handoffs.
    expect(cpuUsPerHandoff(before, after, 100, 10_000)).toEqual({ router: 250, bench_agent: 600 });
  });

  it('leaves out a process read at only one end', () => {
    expect(cpuUsPerHandoff(new Map([['gone', 5]]), new Map([['new', 7]]), 100, 10)).toEqual({});
  });
});

const summary = (throughputPerS: number): LatencySummary => ({
  count: 10_000,
  p50Ms: 120,
  p95Ms: 300,
  p99Ms: 410,
  throughputPerS,
});
const off: SignedPathRun = { fullPath: summary(1000), cpuUsPerHandoff: { router: 250, bench_agent: 600 } };
const required: SignedPathRun = { fullPath: summary(800), cpuUsPerHandoff: { router: 350, bench_agent: 750 } };

describe('signedPathRatios', () => {
  it('divides required by off: throughput, and CPU per handoff of each process', () => {
    expect(signedPathRatios(off, required)).toEqual({
      throughput: 0.8,
      'cpu.router': 1.4,
      'cpu.bench_agent': 1.25,
    });
  });

  it('has no ratio where a figure is missing or the baseline is zero', () => {
    const idle = { fullPath: summary(0), cpuUsPerHandoff: { router: 0, bench_agent: 600 } };
    expect(signedPathRatios(idle, { ...required, cpuUsPerHandoff: { router: 350 } })).toEqual({
      throughput: null,
      'cpu.router': null,
      'cpu.bench_agent': null,
    });
  });
});

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
  return { first, off, required: slower, ratios: signedPathRatios(off, slower) };
};

describe('medianSignedRound', () => {
  it('takes the round whose throughput ratio is the median', () => {
    const rounds = [
      round('off', 700),
      round('required', 900),
      round('off', 800),
      round('required', 500),
      round('off', 850),
    ];
    expect(medianSignedRound(rounds)).toBe(rounds[2]);
    expect(medianSignedRound([round('off', 600)]).ratios.throughput).toBe(0.6);
  });
});

describe('signedPathLines', () => {
  it('gives both passes of the median round, the CPU per handoff of each process, and every round', () => {
    const lines = signedPathLines({
      handoffs: 10_000,
      warmup: 10_000,
      rounds: [round('off', 800), round('required', 700), round('off', 900)],
      off,
      required,
      ratios: signedPathRatios(off, required),
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
