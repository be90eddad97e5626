/**
 * The Grafana dashboard (ops/grafana/dashboards/mobileapp-asmx.json) against the server's real
 * /metrics: after SOAP 1.1/1.2 and HTTP GET calls (successes, business errors, a server fault), every
 * metric its queries name is exposed, with every label their matchers, groupings and legends use, and
 * the values their equality matchers compare with. And the JSON holds what Grafana needs to load it
 * (uid, title, schemaVersion, panels on the grid, the provisioned data source).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EngineKind } from '../../src/db/engine';
import { startTestApp, type TestApp } from '../support/app';
import { ENGINES } from '../support/engines';
import { listen, type Listening } from '../support/listen';
import { DASHBOARD_FILE, provisionedDatasources, REPO } from './ops-files';
import { MAIN, SOAP11, SOAP12, soapEnvelope, SYNC } from './ops-support';
import { scanPromQL, scanVariableQuery, type Scan } from './promql-scan';

/** Each sample name of an exposition, with the values of each of its labels. */
type Exposition = Map<string, Map<string, Set<string>>>;

/** Labels Prometheus adds to every series it scrapes: never in /metrics itself. */
const SCRAPE_LABELS = new Set(['job', 'instance']);

/** Values an equality matcher may name that one engine never exposes: SQLite has no pool, one "total" connection. */
const ABSENT_ON: Record<EngineKind, Array<[metric: string, label: string, value: string]>> = {
  sqlite: [['asmx_db_connections', 'state', 'idle']],
  postgres: [],
};

function parseExposition(text: string): Exposition {
  const series: Exposition = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const name = /^[A-Za-z_:][A-Za-z0-9_:]*/.exec(line)?.[0];
    if (!name) throw new Error(`unreadable exposition line: ${line}`);
    const labels = series.get(name) ?? new Map<string, Set<string>>();
    series.set(name, labels);
    let i = name.length;
    if (line[i] !== '{') continue;
    i++;
    while (line[i] !== '}') {
      const label = /^([A-Za-z_][A-Za-z0-9_]*)="/.exec(line.slice(i));
      if (!label) throw new Error(`unreadable labels: ${line}`);
      i += label[0].length;
      let value = '';
      while (line[i] !== '"') {
        if (line[i] === '\\') value += { n: '\n', '\\': '\\', '"': '"' }[line[++i]] ?? line[i];
        else value += line[i];
        i++;
      }
      i++;
      if (line[i] === ',') i++;
      const values = labels.get(label[1]) ?? new Set<string>();
      values.add(value);
      labels.set(label[1], values);
    }
  }
  return series;
}

interface DatasourceRef {
  type: string;
  uid: string;
}

interface Target {
  refId: string;
  expr: string;
  legendFormat?: string;
  datasource?: DatasourceRef;
}

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos?: { x: number; y: number; w: number; h: number };
  datasource?: DatasourceRef;
  targets?: Target[];
  /** A collapsed row's panels. */
  panels?: Panel[];
}

interface Variable {
  name: string;
  type: string;
  query?: string | { query: string };
  datasource?: DatasourceRef;
}

/** The parts of Grafana's dashboard model these tests read. */
interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  time: { from: string; to: string };
  templating: { list: Variable[] };
  panels: Panel[];
}

interface Query {
  where: string;
  scan: Scan;
  legend?: string;
}

/** Every panel (rows' own panels too, when collapsed). */
function allPanels(dashboard: Dashboard): Panel[] {
  return dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
}

function queriesOf(dashboard: Dashboard): Query[] {
  const queries: Query[] = [];
  for (const panel of allPanels(dashboard)) {
    for (const target of panel.targets ?? []) {
      queries.push({
        where: `panel "${panel.title}" ${target.refId}`,
        scan: scanPromQL(target.expr),
        legend: target.legendFormat,
      });
    }
  }
  for (const variable of dashboard.templating.list) {
    if (variable.type !== 'query') continue;
    const query = typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? '');
    queries.push({ where: `variable $${variable.name}`, scan: scanVariableQuery(query) });
  }
  return queries;
}

/** What in the dashboard's queries the exposition does not have; empty when it has everything. */
function missingFrom(dashboard: Dashboard, series: Exposition, kind: EngineKind): string[] {
  const problems: string[] = [];
  const hasLabel = (metric: string, label: string) =>
    SCRAPE_LABELS.has(label) || (series.get(metric)?.has(label) ?? false);
  const absent = (metric: string, label: string, value: string) =>
    ABSENT_ON[kind].some(([m, l, v]) => m === metric && l === label && v === value);
  for (const { where, scan, legend } of queriesOf(dashboard)) {
    for (const { metric, matchers } of scan.selectors) {
      if (!series.has(metric)) {
        problems.push(`${where}: ${metric} is not in /metrics`);
        continue;
      }
      for (const { label, op, value } of matchers) {
        if (!hasLabel(metric, label)) problems.push(`${where}: ${metric} has no label ${label}`);
        else if (
          (op === '=' || op === '!=') &&
          !value.includes('$') &&
          !SCRAPE_LABELS.has(label) &&
          !series.get(metric)!.get(label)!.has(value) &&
          !absent(metric, label, value)
        ) {
          problems.push(`${where}: ${metric} has no ${label}="${value}"`);
        }
      }
    }
    for (const { keyword, labels, metrics, onAny } of scan.labelLists) {
      if (metrics.length === 0) problems.push(`${where}: ${keyword} (${labels.join(', ')}) applies to no metric`);
      for (const label of labels) {
        const on = metrics.filter((metric) => hasLabel(metric, label));
        if (onAny ? on.length === 0 : on.length < metrics.length)
          problems.push(
            `${where}: ${keyword} (${label}): not a label of ${metrics.filter((m) => !on.includes(m)).join(', ')}`,
          );
      }
    }
    const metrics = scan.selectors.map((s) => s.metric);
    for (const [, label] of (legend ?? '').matchAll(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g)) {
      if (!metrics.some((metric) => hasLabel(metric, label)))
        problems.push(`${where}: the legend's {{${label}}} is no label of ${metrics.join(', ')}`);
    }
  }
  return problems;
}

const dashboard = JSON.parse(fs.readFileSync(path.join(REPO, DASHBOARD_FILE), 'utf8')) as Dashboard;

describe('the PromQL scan', () => {
  it('finds the metrics, matchers and grouped labels, and nothing else', () => {
    const scan = scanPromQL(
      'histogram_quantile(0.95, sum by (le, service) (rate(asmx_request_duration_seconds_bucket{binding=~"soap.*", outcome!="by (x)"}[$__rate_interval] offset 1h30m))) ' +
        '/ on (instance) group_left (job) sum(rate(asmx_requests_total{}[5m:1m])) without (outcome) or vector(0) > bool 2e-3',
    );
    expect(scan.selectors).toEqual([
      {
        metric: 'asmx_request_duration_seconds_bucket',
        matchers: [
          { label: 'binding', op: '=~', value: 'soap.*' },
          { label: 'outcome', op: '!=', value: 'by (x)' },
        ],
      },
      { metric: 'asmx_requests_total', matchers: [] },
    ]);
    expect(scan.labelLists).toEqual([
      { keyword: 'by', labels: ['le', 'service'], metrics: ['asmx_request_duration_seconds_bucket'], onAny: false },
      {
        keyword: 'on',
        labels: ['instance'],
        metrics: ['asmx_request_duration_seconds_bucket', 'asmx_requests_total'],
        onAny: false,
      },
      {
        keyword: 'group_left',
        labels: ['job'],
        metrics: ['asmx_request_duration_seconds_bucket', 'asmx_requests_total'],
        onAny: true,
      },
      { keyword: 'without', labels: ['outcome'], metrics: ['asmx_requests_total'], onAny: false },
    ]);
    expect(scanVariableQuery('label_values(asmx_requests_total{service=~"$service"}, operation)').labelLists).toEqual([
      { keyword: 'label_values', labels: ['operation'], metrics: ['asmx_requests_total'], onAny: false },
    ]);
  });

  it('refuses what it cannot check', () => {
    expect(() => scanPromQL('{job="x"}')).toThrow(/without a metric name/);
    expect(() => scanPromQL('rate($metric[5m])')).toThrow(/outside a string/);
    expect(() => scanPromQL('sum(x{a=b})')).toThrow(/matcher/);
    expect(() => scanVariableQuery('query_result(up)')).toThrow(/label_values/);
  });
});

describe.each(ENGINES)('the dashboard against /metrics: %s', (kind) => {
  let app: TestApp | undefined;
  let listening: Listening | undefined;
  let databaseClosed = false;
  let series: Exposition;

  const call = async (expected: number, url: string, init?: RequestInit) => {
    const res = await fetch(`${listening!.baseUrl}${url}`, init);
    await res.text();
    if (res.status !== expected)
      throw new Error(`${init?.method ?? 'GET'} ${url}: ${res.status}, expected ${expected}`);
  };
  const soap = (version: typeof SOAP11, operation: string, params = '') => ({
    method: 'POST',
    headers: { 'Content-Type': version.type },
    body: soapEnvelope(version, operation, params),
  });

  beforeAll(async () => {
    app = await startTestApp({ kind });
    await app.app.ready;
    listening = await listen(app.app);
    await call(200, SYNC, soap(SOAP11, 'HelloWorld'));
    await call(200, SYNC, soap(SOAP12, 'HelloWorld'));
    await call(200, `${SYNC}/HelloWorld`);
    await call(200, `${MAIN}?wsdl`);
    // A business error in both bindings: an unknown user.
    await call(200, `${MAIN}/FillAreaManagers?username=nobody`);
    await call(500, MAIN, soap(SOAP11, 'FillAreaManagers', '<username>nobody</username>'));
    // The database gone: the server's own failure.
    databaseClosed = true;
    await app.close();
    await call(500, `${MAIN}/FillAreaManagers?username=nobody`);
    const metrics = await fetch(`${listening.baseUrl}/metrics`);
    expect(metrics.status).toBe(200);
    series = parseExposition(await metrics.text());
  });
  afterAll(async () => {
    await listening?.stop();
    if (!databaseClosed) await app?.close();
  });

  it('names only series the server exposes, with their labels and values', () => {
    const outcomes = series.get('asmx_requests_total')?.get('outcome');
    expect([...(outcomes ?? [])].sort()).toEqual(['business_error', 'server_fault', 'success']);
    expect(queriesOf(dashboard).length).toBeGreaterThan(20);
    expect(missingFrom(dashboard, series, kind)).toEqual([]);
  });

  it('would catch a panel that queries a series, a label or a value the server does not expose', () => {
    const edited = structuredClone(dashboard);
    edited.panels.push({
      id: 999,
      type: 'timeseries',
      title: 'Made up',
      targets: [
        {
          refId: 'A',
          expr: 'sum by (opration) (rate(asmx_requests_total[5m])) / sum(rate(asmx_request_duration_seconds{outcome="fault"}[5m]))',
          legendFormat: '{{opration}}',
        },
        { refId: 'B', expr: 'sum(asmx_answer_cache_bytes{result="hit"}) + sum(asmx_db_connections{state="busy"})' },
      ],
    });
    expect(missingFrom(edited, series, kind)).toEqual([
      'panel "Made up" A: asmx_request_duration_seconds is not in /metrics',
      'panel "Made up" A: by (opration): not a label of asmx_requests_total',
      'panel "Made up" A: the legend\'s {{opration}} is no label of asmx_requests_total, asmx_request_duration_seconds',
      'panel "Made up" B: asmx_answer_cache_bytes has no label result',
      'panel "Made up" B: asmx_db_connections has no state="busy"',
    ]);
  });
});

describe('the dashboard for Grafana', () => {
  const panels = allPanels(dashboard);

  it('has a uid, a title, a schema version and variables on the provisioned data source', () => {
    expect(dashboard.uid).toMatch(/^[A-Za-z0-9_-]{1,40}$/);
    expect(typeof dashboard.title).toBe('string');
    expect(dashboard.title.length).toBeGreaterThan(0);
    expect(Number.isInteger(dashboard.schemaVersion)).toBe(true);
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.time).toEqual({ from: expect.any(String), to: expect.any(String) });
    const names = dashboard.templating.list.map((v) => v.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('places every panel on the 24-column grid, without overlaps, with unique ids', () => {
    const ids = panels.map((p) => p.id);
    expect(ids.every(Number.isInteger)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const taken = new Map<string, string>();
    for (const panel of panels) {
      const { x, y, w, h } = panel.gridPos ?? { x: NaN, y: NaN, w: NaN, h: NaN };
      expect([
        panel.title,
        [x, y, w, h].every(Number.isInteger),
        x >= 0 && y >= 0 && w > 0 && h > 0 && x + w <= 24,
      ]).toEqual([panel.title, true, true]);
      for (let col = x; col < x + w; col++) {
        for (let row = y; row < y + h; row++) {
          const other = taken.get(`${col},${row}`);
          expect([panel.title, other]).toEqual([panel.title, undefined]);
          taken.set(`${col},${row}`, panel.title);
        }
      }
    }
  });

  it('queries the Prometheus data source Grafana is provisioned with, by its uid', () => {
    const prometheus = provisionedDatasources().filter((d) => d.type === 'prometheus');
    expect(prometheus).toHaveLength(1);
    const expected = { type: 'prometheus', uid: prometheus[0].uid };
    expect(expected.uid).toMatch(/^[A-Za-z0-9_-]+$/);
    const queried = panels.filter((p) => p.type !== 'row');
    expect(queried.length).toBeGreaterThan(10);
    for (const panel of queried) {
      expect([panel.title, panel.datasource]).toEqual([panel.title, expected]);
      const targets = panel.targets ?? [];
      expect([panel.title, targets.length > 0]).toEqual([panel.title, true]);
      const refIds = targets.map((t) => t.refId);
      expect([panel.title, new Set(refIds).size]).toEqual([panel.title, refIds.length]);
      for (const target of targets)
        expect([panel.title, target.datasource, typeof target.expr]).toEqual([panel.title, expected, 'string']);
    }
    for (const variable of dashboard.templating.list)
      expect([variable.name, variable.datasource]).toEqual([variable.name, expected]);
  });
});
