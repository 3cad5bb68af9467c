type Level<T> = Map<string, Level<T> | T>;

/**
 * The series of a metric by label values, found through maps keyed by each value in turn: once a
 * combination has been seen, finding it again allocates nothing, where prom-client validates the
 * labels of every update and hashes them into a string to look the series up. For the metrics
 * updated on every message (HotCounter, HotHistogram).
 */
export class LabelSeries<T> {
  private root: Level<T> = new Map();
  private list: T[] = [];

  constructor(
    private readonly metricName: string,
    private readonly labelNames: readonly string[],
    private readonly create: (labels: Record<string, string>) => T,
  ) {
    if (labelNames.length === 0) throw new Error(`${metricName}: label series need label names`);
  }

  /** The series of these label values, given in labelNames order; made on first sight. */
  find(values: readonly string[]): T {
    const { labelNames } = this;
    if (values.length !== labelNames.length) {
      throw new Error(`${this.metricName} takes ${labelNames.length} label values, not ${values.length}`);
    }
    let level = this.root;
    for (let index = 0; index < values.length - 1; index += 1) {
      const value = values[index] as string;
      let next = level.get(value) as Level<T> | undefined;
      if (next === undefined) level.set(value, (next = new Map()));
      level = next;
    }
    const last = values[values.length - 1] as string;
    let series = level.get(last) as T | undefined;
    if (series === undefined) {
      const labels: Record<string, string> = {};
      labelNames.forEach((name, index) => (labels[name] = values[index] as string));
      series = this.create(labels);
      level.set(last, series);
      this.list.push(series);
    }
    return series;
  }

  /** Every series, in the order first seen. */
  all(): readonly T[] {
    return this.list;
  }

  clear(): void {
    this.root = new Map();
    this.list = [];
  }
}
