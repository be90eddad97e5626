import fs from 'node:fs';
import path from 'node:path';
import { SUPPORTED_NODE, unsupportedNode } from './node-version';

describe('unsupportedNode', () => {
  it('names the range package.json declares', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(SUPPORTED_NODE).toBe(pkg.engines.node);
  });

  it.each(['22.15.0', '22.21.1', '24.0.0', '24.21.0', '25.1.0', '26.0.0'])('admits %s', (version) => {
    expect(unsupportedNode(version)).toBeUndefined();
  });

  it.each(['18.20.8', '20.19.0', '20.20.2', '22.14.0', '23.11.1'])('refuses %s in one line', (version) => {
    const line = unsupportedNode(version);
    expect(line).toBe(
      `Node ${version} is not supported (^22.15.0 || >=24): install Node 24, then run npm ci again (README, "Node.js")`,
    );
  });

  it("is what .nvmrc names: the container image's major, within the range", () => {
    const root = path.join(__dirname, '..', '..');
    const nvmrc = fs.readFileSync(path.join(root, '.nvmrc'), 'utf8').trim();
    const image = /^FROM node:(\d+)-/m.exec(fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8'))?.[1];
    expect(nvmrc).toBe(image);
    expect(unsupportedNode(`${nvmrc}.0.0`)).toBeUndefined();
  });

  it('admits the Node running the tests', () => {
    expect(unsupportedNode()).toBeUndefined();
  });
});
