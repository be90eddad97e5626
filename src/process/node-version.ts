/**
 * The Node lines the project supports (package.json "engines"). Another Node gets one line saying
 * what to install before anything loads better-sqlite3, which needs Node-API 10 (Node 22.14) and
 * crashes the process without it; the OpenTelemetry SDK asks for 22.15.
 */
export const SUPPORTED_NODE = '^22.15.0 || >=24';

/** The line to print when `version` (process.versions.node) is outside SUPPORTED_NODE, else undefined. */
export function unsupportedNode(version: string = process.versions.node): string | undefined {
  const [major, minor] = version.split('.').map(Number);
  if (major >= 24 || (major === 22 && minor >= 15)) return undefined;
  return `Node ${version} is not supported (${SUPPORTED_NODE}): install Node 24, then run npm ci again (README, "Node.js")`;
}
