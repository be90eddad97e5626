/**
 * Two servers' answers to one request, compared as their binding means them (docs/cutover.md,
 * "What is compared"): the status, the content type, and the body as XML or JSON leaves
 * (canonical.ts), or as text. Headers else are never compared (Date, request ids, Set-Cookie,
 * Content-Length, ...). A body over the capture cap is compared by length and digest.
 */
import { jsonLeaves, pattern, xmlLeaves, type Leaves } from './canonical';
import { deliberateDifference } from './expected';
import { mediaType, type Call, type RequestHead } from './traffic';

export interface Answer {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body's first bytes, up to the capture cap. */
  body: Buffer;
  /** The whole body's length and SHA-256 (hex). */
  length: number;
  digest: string;
  truncated: boolean;
}

export interface Difference {
  path: string;
  primary: string;
  candidate: string;
}

export interface Verdict {
  outcome: 'same' | 'different' | 'expected';
  /** For `expected`: the deliberate difference it is (expected.ts). */
  rule?: string;
  differences: Difference[];
  /** Paths that differed where the primary differs from itself (noise.ts): not counted as differences. */
  noisy: string[];
  byDigest: boolean;
}

export interface CompareOptions {
  /** Paths left out by hand (`--ignore`). */
  ignored(path: string): boolean;
  /** Paths learnt to differ between two answers of the primary to one request. */
  noisy(path: string): boolean;
}

export function compareAnswers(
  call: Call,
  request: RequestHead & { body: Buffer },
  primary: Answer,
  candidate: Answer,
  options: CompareOptions,
): Verdict {
  const { differences, byDigest } = differencesOf(primary, candidate);
  const kept = differences.filter((difference) => !options.ignored(difference.path));
  const noisy = kept.filter((difference) => options.noisy(difference.path));
  const real = kept.filter((difference) => !options.noisy(difference.path));
  const verdict: Verdict = {
    outcome: real.length === 0 ? 'same' : 'different',
    differences: real,
    noisy: [...new Set(noisy.map((d) => pattern(d.path)))],
    byDigest,
  };
  if (verdict.outcome === 'different') {
    const rule = deliberateDifference(call, request, primary, candidate, real);
    if (rule !== undefined) return { ...verdict, outcome: 'expected', rule };
  }
  return verdict;
}

/** Every difference of the two answers, before any is ignored. */
export function differencesOf(primary: Answer, candidate: Answer): { differences: Difference[]; byDigest: boolean } {
  const differences: Difference[] = [];
  if (primary.status !== candidate.status)
    differences.push({ path: '(status)', primary: String(primary.status), candidate: String(candidate.status) });
  const [typeA, typeB] = [mediaType(primary), mediaType(candidate)];
  if (typeA !== typeB) differences.push({ path: '(content-type)', primary: typeA, candidate: typeB });
  if (primary.truncated || candidate.truncated) {
    if (primary.digest !== candidate.digest)
      differences.push({ path: '(body)', primary: digestOf(primary), candidate: digestOf(candidate) });
    return { differences, byDigest: true };
  }
  if (primary.digest === candidate.digest) return { differences, byDigest: false };
  const [leavesA, leavesB] = [leavesOf(primary), leavesOf(candidate)];
  if (leavesA === undefined || leavesB === undefined) {
    differences.push({
      path: '(body)',
      primary: excerpt(primary.body.toString('utf8')),
      candidate: excerpt(candidate.body.toString('utf8')),
    });
    return { differences, byDigest: false };
  }
  for (const path of new Set([...leavesA.keys(), ...leavesB.keys()])) {
    const [a, b] = [leavesA.get(path), leavesB.get(path)];
    if (a !== b)
      differences.push({
        path,
        primary: a === undefined ? '(absent)' : excerpt(a),
        candidate: b === undefined ? '(absent)' : excerpt(b),
      });
  }
  return { differences, byDigest: false };
}

/** The leaves of an XML or JSON body; undefined for other bodies and for ones that do not parse. */
function leavesOf(answer: Answer): Leaves | undefined {
  const type = mediaType(answer);
  try {
    if (/[/+]xml\b/.test(type)) return xmlLeaves(answer.body.toString('utf8'));
    if (/[/+]json\b/.test(type)) return jsonLeaves(answer.body.toString('utf8'));
  } catch {
    return undefined;
  }
  return undefined;
}

function digestOf(answer: Answer): string {
  return `${answer.length} bytes, sha256 ${answer.digest.slice(0, 16)}`;
}

/** Values in a report are cut to a readable length. */
function excerpt(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}

/**
 * `--ignore` paths as written in the report, `[*]` standing for any index; a path also matches what
 * lies below it (`Data[*].Details` covers `Data[2].Details.Note`).
 */
export function pathMatcher(patterns: readonly string[]): (path: string) => boolean {
  if (patterns.length === 0) return () => false;
  const expressions = patterns.map((written) => {
    const source = written.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\[\\\*\\\]/g, '\\[\\d+\\]');
    return new RegExp(`^${source}(?:$|[./[])`);
  });
  return (path) => expressions.some((expression) => expression.test(path));
}
