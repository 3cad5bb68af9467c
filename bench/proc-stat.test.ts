import { describe, expect, it } from 'vitest';
import { cpuPercent, listeningInodes, parseProcStat, processTree } from './proc-stat.js';

describe('parseProcStat', () => {
  it('reads pid, parent and CPU ticks, counting the fields after the last parenthesis', () => {
    const line =
      '4242 (node (tsx) x) S 4200 4242 4200 0 -1 4194560 9216 0 0 0 1234 567 0 0 20 0 11 0 8125 1183739904 38000 18446744073709551615';
    expect(parseProcStat(line)).toEqual({ pid: 4242, ppid: 4200, utimeTicks: 1234, stimeTicks: 567 });
  });

  it('refuses a line that is not a stat line', () => {
    expect(() => parseProcStat('Name: node')).toThrow(/not a \/proc\/<pid>\/stat line/);
    expect(() => parseProcStat('1 (x) S 0')).toThrow(/field 14 is not an integer/);
  });
});

describe('processTree', () => {
  it('is the root and every descendant, and nothing else', () => {
    const stat = (pid: number, ppid: number) => ({ pid, ppid, utimeTicks: 0, stimeTicks: 0 });
    const stats = [stat(1, 0), stat(10, 1), stat(11, 10), stat(12, 11), stat(13, 10), stat(20, 1)];
    expect(processTree(10, stats).sort((a, b) => a - b)).toEqual([10, 11, 12, 13]);
    expect(processTree(12, stats)).toEqual([12]);
  });
});

describe('cpuPercent', () => {
  it('is the share of one core over the window, to two decimals', () => {
    expect(cpuPercent(0.6, 60)).toBe(1);
    expect(cpuPercent(21.68, 60.21)).toBe(36.01);
    expect(cpuPercent(0, 60)).toBe(0);
  });

  it('refuses an empty window', () => {
    expect(() => cpuPercent(1, 0)).toThrow(RangeError);
  });
});

describe('listeningInodes', () => {
  const table = [
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
    '   0: 0100007F:AEAB 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 31337 1 0000000000000000 100 0 0 10 0',
    '   1: 0100007F:AEAB 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 31338 1 0000000000000000 20 4 30 10 -1',
    '   2: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 4242 1 0000000000000000 100 0 0 10 0',
  ].join('\n');

  it('is the inode of each socket listening on the port (hex), not of its connections', () => {
    expect(listeningInodes(table, 44_715)).toEqual(['31337']);
    expect(listeningInodes(table, 8080)).toEqual(['4242']);
    expect(listeningInodes(table, 9092)).toEqual([]);
  });
});
