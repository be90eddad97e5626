/**
 * The files operators install beside the server (ops/): read as dashboard.test.ts checks them.
 */
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

export const REPO = path.resolve(__dirname, '../..');
export const DASHBOARD_FILE = 'ops/grafana/dashboards/mobileapp-asmx.json';
export const DATASOURCES_DIR = 'ops/grafana/provisioning/datasources';

export interface GrafanaDatasource {
  name: string;
  uid: string;
  type: string;
  url: string;
  jsonData?: { timeInterval?: string };
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
