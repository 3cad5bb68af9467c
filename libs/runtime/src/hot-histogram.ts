import type { Registry } from 'prom-client';
import { LabelSeries } from './label-series.js';

/** One series: its labels and what was observed for them. */
interface Series {
  labels: Readonly<Record<string, string>>;
  /** Observations per bucket, not cumulative; the last slot counts those above every bound. */
  counts: Float64Array;
  sum: number;
  count: number;
}

export interface HotHistogramConfig {
  name: string;
  help: string;
  labelNames: readonly string[];
  /** Upper bounds, ascending. */
  buckets: readonly number[];
  registers: Registry[];
}

/** A value of the exposition, as prom-client's registry reads it from a metric. */
interface ExportedValue {
  labels: Record<string, string | number>;
  sharedLabels?: Readonly<Record<string, string>>;
  value: number;
  metricName: string;
  /** prom-client's buckets carry one (null without exemplars); kept so the JSON view matches its Histogram's. */
  exemplar?: null;
}

/**
 * A Prometheus histogram for what is observed on every message. prom-client's Histogram validates
 * the labels of every observation, hashes them into a string and looks the series up by it: about
 * 2% of a busy router's CPU for its one histogram a message. This one finds the series in its
 * LabelSeries, and gives a scrape the same text as prom-client's Histogram (series in the order
 * first observed, `le` first).
 */
export class HotHistogram {
  readonly name: string;
  readonly help: string;
  readonly type = 'histogram';
  /** How prom-client's cluster registry merges workers' values. */
  readonly aggregator = 'sum';
  private readonly bounds: readonly number[];
  private readonly series: LabelSeries<Series>;

  constructor(config: HotHistogramConfig) {
    if (config.labelNames.length === 0) throw new Error(`${config.name}: a HotHistogram needs labels; use a Histogram`);
    if (config.buckets.some((bound, index) => index > 0 && bound <= (config.buckets[index - 1] as number))) {
      throw new Error(`${config.name}: buckets must be in ascending order`);
    }
    this.name = config.name;
    this.help = config.help;
    this.bounds = [...config.buckets];
    const buckets = this.bounds.length + 1;
    this.series = new LabelSeries<Series>(config.name, config.labelNames, (labels) => ({
      labels,
      counts: new Float64Array(buckets),
      sum: 0,
      count: 0,
    }));
    // registerMetric takes any object with prom-client's metric shape (name, help, type, get).
    for (const registry of config.registers) registry.registerMetric(this as never);
  }

  /** Observes `value` for the label values given in labelNames order. */
  observe(value: number, ...values: string[]): void {
    if (!Number.isFinite(value)) throw new TypeError(`${this.name}: value is not a finite number: ${value}`);
    const series = this.series.find(values);
    const { bounds } = this;
    let bucket = 0;
    while (bucket < bounds.length && value > (bounds[bucket] as number)) bucket += 1;
    (series.counts[bucket] as number) += 1;
    series.sum += value;
    series.count += 1;
  }

  /** Forgets every series, as prom-client's registry asks of its metrics on resetMetrics(). */
  reset(): void {
    this.series.clear();
  }

  /** The values for the text exposition: each with `le` or none as its labels, the series' labels shared. */
  getForPromString(): { name: string; help: string; type: string; values: ExportedValue[]; aggregator: string } {
    const values: ExportedValue[] = [];
    const bucketName = `${this.name}_bucket`;
    for (const { labels, counts, sum, count } of this.series.all()) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += counts[index] as number;
        values.push({
          labels: { le: bound },
          sharedLabels: labels,
          value: cumulative,
          metricName: bucketName,
          exemplar: null,
        });
      });
      values.push({
        labels: { le: '+Inf' },
        sharedLabels: labels,
        value: count,
        metricName: bucketName,
        exemplar: null,
      });
      values.push({ labels: {}, sharedLabels: labels, value: sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The values with their labels in one object, as getMetricsAsJSON shows them. */
  get(): { name: string; help: string; type: string; values: ExportedValue[]; aggregator: string } {
    const metric = this.getForPromString();
    metric.values = metric.values.map(({ labels, sharedLabels, ...rest }) => ({
      ...rest,
      labels: { ...labels, ...sharedLabels },
    }));
    return metric;
  }
}
