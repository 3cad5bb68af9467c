import { describe, expect, it } from 'vitest';
import { vmHwmMiB } from './peak-rss.js';

describe('vmHwmMiB', () => {
  it('reads VmHWM in MiB to one decimal, NaN when the line is missing', () => {
    expect(vmHwmMiB('Name:\tnode\nVmPeak:\t 999999 kB\nVmHWM:\t  153600 kB\nVmRSS:\t 100 kB\n')).toBe(150);
    expect(vmHwmMiB('VmHWM:\t 1126 kB\n')).toBe(1.1);
    expect(vmHwmMiB('Name:\tnode\n')).toBeNaN();
  });
});
