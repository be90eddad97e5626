/**
 * Noise learnt from the primary itself (docs/migration.md, "Noise"): a share of reads is sent to it
 * twice, back to back, and a field that differs between its two answers (a timestamp, a generated
 * id) is noisy once it has done so NOISY_AFTER times, per operation and binding. Differences there
 * are then reported as noisy, not as differences.
 */
import { pattern } from './canonical';
import type { Difference } from './compare';

const NOISY_AFTER = 3;

export class NoiseLearner {
  private readonly seen = new Map<string, Map<string, number>>();
  private reads = 0;

  constructor(
    /** One read in this many is sent to the primary twice; 0 for none. */
    readonly sampleEvery = 20,
  ) {}

  /** Whether this read should be sent to the primary a second time. */
  sampleNext(): boolean {
    this.reads += 1;
    return this.sampleEvery > 0 && this.reads % this.sampleEvery === 0;
  }

  /** What differed between the primary's two answers to one request of `key`. */
  learn(key: string, differences: readonly Difference[]): void {
    let counts = this.seen.get(key);
    if (counts === undefined) this.seen.set(key, (counts = new Map<string, number>()));
    for (const path of new Set(differences.map((difference) => pattern(difference.path)))) counts.set(path, (counts.get(path) ?? 0) + 1);
  }

  isNoisy(key: string, path: string): boolean {
    return (this.seen.get(key)?.get(pattern(path)) ?? 0) >= NOISY_AFTER;
  }

  noisyFields(key: string): string[] {
    return [...(this.seen.get(key) ?? [])].filter(([, count]) => count >= NOISY_AFTER).map(([path]) => path);
  }
}
