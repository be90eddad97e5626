/** The Node lines of package.json's "engines": another Node gets one line before better-sqlite3 crashes it. */
export const SUPPORTED_NODE = '^22.15.0 || >=24';

/** The line to print when `version` (process.versions.node) is outside SUPPORTED_NODE, else undefined. */
export function unsupportedNode(version: string = process.versions.node): string | undefined {
  const [major, minor] = version.split('.').map(Number);
  if (major >= 24 || (major === 22 && minor >= 15)) return undefined;
  return `Node ${version} is not supported (${SUPPORTED_NODE}): install Node 24, then run npm ci again (README, "Node.js")`;
}
