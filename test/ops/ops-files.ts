/**
 * The files operators install beside the server (compose.yaml, ops/): read as dashboard.test.ts and
 * compose.test.ts check them.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

export const REPO = path.resolve(__dirname, '../..');
export const DASHBOARD_FILE = 'ops/grafana/dashboards/mobileapp-asmx.json';
export const DATASOURCES_DIR = 'ops/grafana/provisioning/datasources';

export interface ComposeVolume {
  type?: string;
  source: string;
  target: string;
}

/** The parts of a compose service these tests read. */
export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string };
  command?: unknown;
  environment?: Record<string, string | number | boolean | null> | string[];
  env_file?: string | Array<string | { path: string; required?: boolean }>;
  volumes?: Array<string | ComposeVolume>;
  ports?: Array<string | number>;
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: string | string[]; disable?: boolean };
  stop_grace_period?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

export interface PrometheusConfig {
  global: { scrape_interval: string };
  scrape_configs: Array<{ job_name: string; metrics_path?: string; static_configs: Array<{ targets: string[] }> }>;
}

export interface GrafanaDatasource {
  name: string;
  uid: string;
  type: string;
  url: string;
  jsonData?: { timeInterval?: string };
}

export interface DashboardProvider {
  name: string;
  type: string;
  options: { path: string };
}

/** A YAML file of the repository, of the shape T the caller expects (the tests check it); a duplicate key or any other error throws. */
export function readYaml<T>(file: string): T {
  return YAML.parse(fs.readFileSync(path.resolve(REPO, file), 'utf8'), { uniqueKeys: true, prettyErrors: true });
}

/** The YAML files of a folder of the repository, by name. */
export function yamlFilesIn<T>(dir: string): Array<{ file: string; content: T }> {
  return fs
    .readdirSync(path.resolve(REPO, dir))
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => ({ file: path.join(dir, name), content: readYaml<T>(path.join(dir, name)) }));
}

/** The data sources provisioned from a folder (Grafana reads every YAML file in it). */
export function provisionedDatasources(dir = DATASOURCES_DIR): GrafanaDatasource[] {
  return yamlFilesIn<{ datasources?: GrafanaDatasource[] }>(dir).flatMap(({ content }) => content.datasources ?? []);
}
