import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { METRIC_NAMES } from '@baton/runtime';
import { familyOf, metricNames } from './promql.js';
import { readRepoFile, serviceNames } from './repo.js';

/** The metric families Baton's services expose, and the Node defaults the dashboard may use. */
const FAMILIES = [...Object.values(METRIC_NAMES), 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds'];
const HISTOGRAMS = ['baton_handoff_processing_seconds', 'baton_transaction_messages'];

interface ScrapeConfig {
  job_name: string;
  metrics_path?: string;
  static_configs?: { targets: string[] }[];
  dns_sd_configs?: { names: string[]; type?: string; port: number }[];
  kubernetes_sd_configs?: { role: string; namespaces?: { names: string[] } }[];
  relabel_configs?: { source_labels?: string[]; action?: string; regex?: string; target_label?: string }[];
}

interface Panel {
  type: string;
  title: string;
  targets?: { expr?: string; refId: string }[];
  panels?: Panel[];
}

describe('metricNames', () => {
  it('finds the metrics of an expression and nothing else', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, handoff_type) (rate(baton_handoff_processing_seconds_bucket{job=~"$job"}[$__rate_interval])))',
      ),
    ).toEqual(['baton_handoff_processing_seconds_bucket']);
    expect(metricNames('sum(rate(a_total[5m])) / on (job) group_left (x) sum(b_total offset 1h) > 1e3')).toEqual([
      'a_total',
      'b_total',
    ]);
    expect(metricNames('up == 0 and nodejs_eventloop_lag_seconds')).toEqual(['nodejs_eventloop_lag_seconds', 'up']);
  });

  it('maps histogram series to their family', () => {
    expect(familyOf('baton_handoff_processing_seconds_count', HISTOGRAMS)).toBe('baton_handoff_processing_seconds');
    expect(familyOf('baton_handoffs_consumed_total', HISTOGRAMS)).toBe('baton_handoffs_consumed_total');
  });
});

describe('infra/prometheus/prometheus.yml (docker-compose)', () => {
  const config = parse(readRepoFile('infra', 'prometheus', 'prometheus.yml')) as { scrape_configs: ScrapeConfig[] };

  /** host:port targets of a job, static or found through Docker's DNS. */
  function targetsOf(job: ScrapeConfig): string[] {
    return [
      ...(job.static_configs ?? []).flatMap((entry) => entry.targets),
      ...(job.dns_sd_configs ?? []).flatMap((entry) => entry.names.map((name) => `${name}:${entry.port}`)),
    ];
  }

  it.each(serviceNames())('scrapes every replica of %s on port 8080, /metrics', (name) => {
    const jobs = config.scrape_configs.filter((job) => targetsOf(job).includes(`${name}:8080`));
    expect(jobs).toHaveLength(1);
    const [job] = jobs;
    expect(job!.job_name).toBe(name);
    expect(job!.metrics_path ?? '/metrics').toBe('/metrics');
    // DNS service discovery of A records finds each container of a scaled service.
    expect(job!.dns_sd_configs?.[0]?.type).toBe('A');
  });

  it('names each job once', () => {
    const names = config.scrape_configs.map((job) => job.job_name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('infra/prometheus/prometheus-k8s.yml', () => {
  it('scrapes the annotated pods of the baton namespace, the job named after the pod', () => {
    const config = parse(readRepoFile('infra', 'prometheus', 'prometheus-k8s.yml')) as {
      scrape_configs: ScrapeConfig[];
    };
    const [job] = config.scrape_configs;
    expect(job!.kubernetes_sd_configs).toEqual([{ role: 'pod', namespaces: { names: ['baton'] } }]);
    expect(job!.relabel_configs).toContainEqual({
      source_labels: ['__meta_kubernetes_pod_annotation_prometheus_io_scrape'],
      action: 'keep',
      regex: 'true',
    });
    expect(job!.relabel_configs).toContainEqual({
      source_labels: ['__meta_kubernetes_pod_label_app_kubernetes_io_name'],
      target_label: 'job',
    });
  });
});

describe('infra/grafana/dashboards/baton.json', () => {
  const dashboard = JSON.parse(readRepoFile('infra', 'grafana', 'dashboards', 'baton.json')) as {
    uid: string;
    title: string;
    panels: Panel[];
    templating: { list: { name: string; type: string; query?: string | { query: string } }[] };
  };
  const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]).filter((p) => p.type !== 'row');
  const exprs = panels.flatMap((panel) =>
    (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })),
  );

  it('is a dashboard with panels, each with a query', () => {
    expect(dashboard.uid).toBe('baton-overview');
    expect(panels.length).toBeGreaterThanOrEqual(10);
    for (const panel of panels) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets!) expect(target.expr, panel.title).toMatch(/\S/);
    }
  });

  it("names only Baton's metric families and the Node defaults", () => {
    const templateQueries = dashboard.templating.list
      .filter((variable) => variable.type === 'query')
      .map((variable) => {
        const query = typeof variable.query === 'string' ? variable.query : variable.query!.query;
        return { panel: `$${variable.name}`, expr: query.replace(/^label_values\((.*),\s*\w+\)$/, '$1') };
      });
    for (const { panel, expr } of [...exprs, ...templateQueries]) {
      const names = metricNames(expr!);
      expect(names.length, `${panel}: ${expr}`).toBeGreaterThan(0);
      for (const name of names) expect(FAMILIES, `${panel}: ${expr}`).toContain(familyOf(name, HISTOGRAMS));
    }
  });

  it('shows every metric family', () => {
    const used = new Set(exprs.flatMap(({ expr }) => metricNames(expr!).map((name) => familyOf(name, HISTOGRAMS))));
    expect([...used].sort()).toEqual([...FAMILIES].sort());
  });
});
