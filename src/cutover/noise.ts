/**
 * Noise (docs/cutover.md, "Noise"): a field that differs between two answers to one request where
 * nothing else changed (a timestamp, a generated id) is noisy once it has done so NOISY_AFTER times,
 * per operation and binding. The two answers come from the primary and a second legacy instance, or
 * from the candidate asked twice: never from the primary asked again, which sees each request once.
 * Differences there are then reported as noisy, not as differences.
 */
import { pattern } from './canonical';
import type { Difference } from './compare';

const NOISY_AFTER = 3;

/** Fields counted per operation and binding at most: answers of any shape keep the learner bounded. */
const FIELDS_PER_KEY = 1000;

export class NoiseLearner {
  private readonly seen = new Map<string, Map<string, number>>();

  /** What differed between two answers to one request of `key`. */
  learn(key: string, differences: readonly Difference[]): void {
    let counts = this.seen.get(key);
    if (counts === undefined) this.seen.set(key, (counts = new Map<string, number>()));
    for (const path of new Set(differences.map((difference) => pattern(difference.path)))) {
      if (counts.has(path) || counts.size < FIELDS_PER_KEY) counts.set(path, (counts.get(path) ?? 0) + 1);
    }
  }

  isNoisy(key: string, path: string): boolean {
    return (this.seen.get(key)?.get(pattern(path)) ?? 0) >= NOISY_AFTER;
  }

  noisyFields(key: string): string[] {
    return [...(this.seen.get(key) ?? [])].filter(([, count]) => count >= NOISY_AFTER).map(([path]) => path);
  }
}
