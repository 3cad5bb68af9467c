import { Counter, type Registry } from 'prom-client';
import { LabelSeries } from './label-series.js';

/** A count and the labels it is for. */
interface Tally {
  labels: Record<string, string>;
  /** Counted since the last collection. */
  pending: number;
}

export interface HotCounterConfig {
  name: string;
  help: string;
  labelNames: readonly string[];
  registers: Registry[];
}

/**
 * A Prometheus counter for what happens on every message. prom-client validates and hashes the
 * labels of every `inc` (a string built from them, then looked up): with three such counters a
 * message, about a twentieth of a busy router's CPU. This one counts in its LabelSeries, and hands
 * the counts to prom-client when the registry is collected (a scrape), so /metrics shows the same series.
 */
export class HotCounter {
  private readonly tallies: LabelSeries<Tally>;

  constructor(config: HotCounterConfig) {
    if (config.labelNames.length === 0) throw new Error(`${config.name}: a HotCounter needs labels; use a Counter`);
    const tallies = new LabelSeries<Tally>(config.name, config.labelNames, (labels) => ({ labels, pending: 0 }));
    this.tallies = tallies;
    new Counter({
      name: config.name,
      help: config.help,
      labelNames: config.labelNames,
      registers: config.registers,
      collect() {
        for (const tally of tallies.all()) {
          if (tally.pending === 0) continue;
          this.inc(tally.labels, tally.pending);
          tally.pending = 0;
        }
      },
    });
  }

  /** Counts one, for the label values given in labelNames order. */
  inc(...values: string[]): void {
    this.tallies.find(values).pending += 1;
  }
}
