/**
 * compose.yaml and the files it mounts (ops/prometheus, ops/grafana), checked without a container
 * runtime: the four services with pinned images and health checks, started in order of health, the
 * server's environment as its own settings loader reads it (over the Dockerfile's ENV), Prometheus
 * scraping the port the server serves /metrics on, Grafana provisioned with that Prometheus and the
 * dashboard, and every mounted file taken from the repository. No password is in the repository:
 * they come from ops/compose.env, which git ignores (ops/compose.env.example lists them), and every
 * published port is bound to 127.0.0.1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadSettings, SETTING_VARIABLES, type Settings } from '../../src/config';
import {
  DASHBOARD_FILE,
  provisionedDatasources,
  readYaml,
  REPO,
  yamlFilesIn,
  type ComposeFile,
  type DashboardProvider,
  type PrometheusConfig,
} from './ops-files';

const compose = readYaml<ComposeFile>('compose.yaml');
const services = compose.services;

interface Mount {
  /** A path of the repository (relative to it), or a named volume. */
  source: string;
  target: string;
  bind: boolean;
}

function mountsOf(service: string): Mount[] {
  return (services[service].volumes ?? []).map((volume): Mount => {
    if (typeof volume === 'string') {
      const [source, target] = volume.split(':');
      const bind = /^[./~]/.test(source);
      return { source: bind ? path.relative(REPO, path.resolve(REPO, source)) : source, target, bind };
    }
    const bind = volume.type === 'bind';
    return {
      source: bind ? path.relative(REPO, path.resolve(REPO, volume.source)) : volume.source,
      target: volume.target,
      bind,
    };
  });
}

/** The repository path a service sees at `containerPath` through its bind mounts (the deepest one). */
function hostPathOf(service: string, containerPath: string): string | undefined {
  const mount = mountsOf(service)
    .filter((m) => m.bind && (containerPath === m.target || containerPath.startsWith(`${m.target}/`)))
    .sort((a, b) => b.target.length - a.target.length)[0];
  return mount && path.join(mount.source, containerPath.slice(mount.target.length));
}

/** A service's environment, in either of compose's forms, as the strings the process gets. */
function environmentOf(service: string): Record<string, string> {
  const env = services[service].environment ?? {};
  const entries: Array<[string, unknown]> = Array.isArray(env)
    ? env.map((item: string) => [item.split('=')[0], item.slice(item.indexOf('=') + 1)])
    : Object.entries(env);
  return Object.fromEntries(entries.map(([name, value]) => [name, String(value)]));
}

/** The ENV of the Dockerfile's last stage (the image compose runs), continuation lines joined. */
function dockerfileEnv(dockerfile: string): Record<string, string> {
  const text = fs.readFileSync(dockerfile, 'utf8').replace(/\\\n/g, ' ');
  const stages = text.split(/^FROM\s/im);
  const env: Record<string, string> = {};
  for (const line of stages[stages.length - 1].split('\n')) {
    const instruction = /^ENV\s+(.*)$/i.exec(line.trim());
    if (!instruction) continue;
    for (const [, name, value] of instruction[1].matchAll(/([A-Za-z_][A-Za-z0-9_]*)=(\S*)/g)) env[name] = value;
  }
  return env;
}

/** The env files a service reads, as paths of the repository. */
function envFilesOf(service: string): string[] {
  const files = services[service].env_file ?? [];
  return (Array.isArray(files) ? files : [files]).map((file) =>
    path.relative(REPO, path.resolve(REPO, typeof file === 'string' ? file : file.path)),
  );
}

const ENV_FILE = 'ops/compose.env';
const ENV_EXAMPLE = 'ops/compose.env.example';

/** The variables of an env file, in order, with their values. */
function envFileVariables(file: string): Array<[string, string]> {
  return fs
    .readFileSync(path.join(REPO, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trim().startsWith('#'))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]);
}

/** Seconds of a compose duration such as 1m30s. */
function seconds(duration: string): number {
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g)];
  if (parts.map((p) => p[0]).join('') !== duration) throw new Error(`not a duration: ${duration}`);
  return parts.reduce((sum, [, n, unit]) => sum + Number(n) * units[unit], 0);
}

/** The healthcheck command of a service, as one string. */
function healthCommand(service: string): string {
  const test = services[service].healthcheck?.test;
  return Array.isArray(test) ? test.join(' ') : String(test);
}

/** The Dockerfile the server service builds from. */
function serverDockerfile(): string {
  const build = services.server.build;
  if (!build) throw new Error('the server service has no build');
  return path.resolve(REPO, build.context, build.dockerfile ?? 'Dockerfile');
}

/** The server's settings as the container gets them: the image's ENV, then compose's environment. */
function serverSettings(): Settings {
  return loadSettings({ ...dockerfileEnv(serverDockerfile()), ...environmentOf('server') });
}

const SERVICES = ['postgres', 'server', 'prometheus', 'grafana'];

describe('compose.yaml', () => {
  it('has the server, its database, Prometheus and Grafana, each image pinned and each with a health check', () => {
    expect(Object.keys(services).sort()).toEqual([...SERVICES].sort());
    for (const name of SERVICES) {
      const service = services[name];
      if (service.image !== undefined)
        expect([name, service.image]).toEqual([name, expect.stringMatching(/^[\w./-]+:(?!latest$)[\w][\w.-]*$/)]);
      else expect(service.build).toBeDefined();
      const { test, disable } = service.healthcheck ?? {};
      expect([
        name,
        disable ?? false,
        Array.isArray(test) && ['CMD', 'CMD-SHELL'].includes(test[0]) && test.length > 1,
      ]).toEqual([name, false, true]);
    }
  });

  it('starts each service once what it needs is healthy', () => {
    const needs = Object.fromEntries(
      SERVICES.map((name) => {
        const dependsOn = services[name].depends_on ?? {};
        expect([name, Array.isArray(dependsOn)]).toEqual([name, false]);
        for (const [other, { condition }] of Object.entries(dependsOn))
          expect([name, other, other in services, condition]).toEqual([name, other, true, 'service_healthy']);
        return [name, Object.keys(dependsOn)];
      }),
    );
    expect(needs).toEqual({ postgres: [], server: ['postgres'], prometheus: ['server'], grafana: ['prometheus'] });
  });

  it('mounts only files of the repository, and declares its named volumes', () => {
    const named = Object.keys(compose.volumes ?? {});
    for (const name of SERVICES) {
      for (const mount of mountsOf(name)) {
        if (mount.bind) {
          expect([
            mount.source,
            mount.source.startsWith('..') || path.isAbsolute(mount.source),
            fs.existsSync(path.join(REPO, mount.source)),
          ]).toEqual([mount.source, false, true]);
        } else {
          expect(named).toContain(mount.source);
        }
      }
    }
  });

  it('publishes every port on 127.0.0.1 only', () => {
    const published = SERVICES.flatMap((name) => (services[name].ports ?? []).map((port) => [name, String(port)]));
    expect(published.length).toBeGreaterThan(0);
    for (const [name, port] of published)
      expect([name, port]).toEqual([name, expect.stringMatching(/^127\.0\.0\.1:\d+:\d+$/)]);
  });

  it('commits no password: each is read from ops/compose.env, which git ignores, listed empty in its example', () => {
    const text = fs.readFileSync(path.join(REPO, 'compose.yaml'), 'utf8');
    // No URL with a password, and no variable of compose's own environments that names one.
    expect(text).not.toMatch(/:\/\/[^\s/@:]*:[^\s/@]+@/);
    for (const name of SERVICES)
      expect([name, Object.keys(environmentOf(name)).filter((key) => /PASSWORD|SECRET|TOKEN/i.test(key))]).toEqual([
        name,
        [],
      ]);
    expect(Object.fromEntries(['postgres', 'server', 'grafana'].map((name) => [name, envFilesOf(name)]))).toEqual({
      postgres: [ENV_FILE],
      server: [ENV_FILE],
      grafana: [ENV_FILE],
    });
    // Not the repository root's .env, which npm start loads into the server's own environment.
    expect(fs.readFileSync(path.join(REPO, '.gitignore'), 'utf8').split('\n')).toContain(ENV_FILE);
    expect(envFileVariables(ENV_EXAMPLE)).toEqual([
      ['POSTGRES_PASSWORD', ''],
      ['PGPASSWORD', ''],
      ['GF_SECURITY_ADMIN_PASSWORD', ''],
    ]);
  });

  it('leaves nothing to the environment it is run from: no ${VARIABLE} for compose to fill in', () => {
    const strings = (value: unknown): string[] =>
      typeof value === 'string'
        ? [value]
        : value && typeof value === 'object'
          ? Object.values(value).flatMap(strings)
          : [];
    expect(strings(compose).filter((s) => /(^|[^$])\$(?!\$)/.test(s))).toEqual([]);
  });
});

describe('the server in compose.yaml', () => {
  const server = services.server;
  const env = environmentOf('server');

  it('builds from the repository and its Dockerfile', () => {
    expect(fs.statSync(path.resolve(REPO, server.build!.context)).isDirectory()).toBe(true);
    const dockerfile = serverDockerfile();
    expect(path.relative(REPO, dockerfile)).toBe('Dockerfile');
    expect(fs.existsSync(dockerfile)).toBe(true);
    // The image's defaults that compose's environment overrides or keeps, read from the runtime stage.
    expect(dockerfileEnv(dockerfile)).toMatchObject({
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '0.0.0.0',
      DATABASE_URL: 'sqlite:/data/mobileapp.db',
    });
  });

  it('sets only settings the server reads, with values its settings loader accepts', () => {
    // OTEL_* are the OpenTelemetry SDK's own variables, which it reads itself.
    expect(Object.keys(env).filter((name) => !SETTING_VARIABLES.includes(name) && !name.startsWith('OTEL_'))).toEqual(
      [],
    );
    expect(() => serverSettings()).not.toThrow();
    // 0 is any free port: Prometheus could not know it.
    expect(serverSettings().metricsPort).not.toBe(0);
  });

  it('uses the postgres service, as its user and database, its password PGPASSWORD of the env file', () => {
    const url = new URL(serverSettings().databaseUrl);
    const postgres = environmentOf('postgres');
    expect(url.protocol).toMatch(/^postgres(ql)?:$/);
    // pg takes PGPASSWORD when the URL names no password; the env file holds it beside POSTGRES_PASSWORD.
    expect([url.hostname, url.port || '5432', decodeURIComponent(url.username), url.password, url.pathname]).toEqual([
      'postgres',
      '5432',
      postgres.POSTGRES_USER,
      '',
      `/${postgres.POSTGRES_DB}`,
    ]);
    expect(envFilesOf('server')).toEqual(envFilesOf('postgres'));
    expect(envFileVariables(ENV_EXAMPLE).map(([name]) => name)).toEqual(
      expect.arrayContaining(['POSTGRES_PASSWORD', 'PGPASSWORD']),
    );
    expect(healthCommand('postgres')).toMatch(
      new RegExp(`^CMD pg_isready .*--username=${postgres.POSTGRES_USER} .*--dbname=${postgres.POSTGRES_DB}\\b`),
    );
  });

  it('is healthy when /ready says so, publishes its port and not the metrics port, and has time to stop gracefully', () => {
    const settings = serverSettings();
    expect(healthCommand('server')).toContain(`fetch('http://127.0.0.1:${settings.port}/ready')`);
    const published = (server.ports ?? []).map((port) => Number(String(port).split(':').at(-1)));
    expect(published).toEqual([settings.port]);
    expect(seconds(server.stop_grace_period ?? '0s') * 1000).toBeGreaterThan(
      settings.shutdownDrainMs + settings.shutdownTimeoutMs,
    );
  });
});

describe('Prometheus and Grafana in compose.yaml', () => {
  const prometheusConfig = hostPathOf('prometheus', '/etc/prometheus/prometheus.yml');

  it("scrapes the server's /metrics on the port it serves them on", () => {
    // The image's own command reads /etc/prometheus/prometheus.yml and listens on 9090.
    expect(services.prometheus.command).toBeUndefined();
    expect(prometheusConfig).toBe('ops/prometheus/prometheus.yml');
    const jobs = readYaml<PrometheusConfig>(prometheusConfig!).scrape_configs;
    expect(jobs).toHaveLength(1);
    expect(jobs[0].metrics_path ?? '/metrics').toBe('/metrics');
    const settings = serverSettings();
    expect(jobs[0].static_configs.flatMap((c) => c.targets)).toEqual([
      `server:${settings.metricsPort ?? settings.port}`,
    ]);
    expect(healthCommand('prometheus')).toContain('http://127.0.0.1:9090/-/');
  });

  it('gives Grafana that Prometheus as its data source, sampled at the scrape interval', () => {
    const datasourcesDir = hostPathOf('grafana', '/etc/grafana/provisioning/datasources');
    expect(datasourcesDir).toBe('ops/grafana/provisioning/datasources');
    const datasources = provisionedDatasources(datasourcesDir);
    expect(datasources).toHaveLength(1);
    const [datasource] = datasources;
    expect(datasource.type).toBe('prometheus');
    expect(new URL(datasource.url).host).toBe('prometheus:9090');
    expect(datasource.jsonData?.timeInterval).toBe(
      readYaml<PrometheusConfig>(prometheusConfig!).global.scrape_interval,
    );
    expect(healthCommand('grafana')).toContain('http://127.0.0.1:3000/api/health');
  });

  it('loads the dashboard from where compose mounts it, and opens on it', () => {
    const providersDir = hostPathOf('grafana', '/etc/grafana/provisioning/dashboards');
    expect(providersDir).toBe('ops/grafana/provisioning/dashboards');
    const providers = yamlFilesIn<{ providers: DashboardProvider[] }>(providersDir!).flatMap(
      ({ content }) => content.providers,
    );
    expect(providers).toHaveLength(1);
    expect(providers[0].type).toBe('file');
    const dashboards = hostPathOf('grafana', providers[0].options.path);
    expect(dashboards).toBe(path.dirname(DASHBOARD_FILE));
    expect(fs.readdirSync(path.join(REPO, dashboards!)).filter((f) => f.endsWith('.json'))).toEqual([
      path.basename(DASHBOARD_FILE),
    ]);
    expect(hostPathOf('grafana', environmentOf('grafana').GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH)).toBe(
      DASHBOARD_FILE,
    );
  });
});
