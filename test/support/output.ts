import type { Output } from '../../scripts/output';

/** An Output for a command-line script's main() in a test: the lines it wrote to stdout and stderr. */
export function captureOutput(): Output & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (l) => lines.push(l), err: (l) => errors.push(l) };
}
