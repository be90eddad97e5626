/** Bounds password checks at once: scrypt shares libuv's thread pool, which a burst of wrong passwords must not fill. */
import { availableParallelism } from 'node:os';

/** Half of libuv's threads, and a core left for the event loop; at least one. */
export const RUNNING = Math.max(
  1,
  Math.min(Math.floor((Number(process.env.UV_THREADPOOL_SIZE) || 4) / 2), availableParallelism() - 1),
);
/** Enough for a burst of logins, few enough that the last one waits a few seconds at most. */
export const WAITING = 16;
/** What a refused attempt is told to wait: by then a few verifications of the queue have finished. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/** The gate is full: the attempt was not checked. */
export class Busy extends Error {
  constructor() {
    super('too many password verifications at once');
    this.name = 'Busy';
  }
}

/** Since the process started: verifications started, attempts refused, and the most at work and in line at once. */
const counts = { started: 0, refused: 0, running: 0, mostRunning: 0, mostWaiting: 0 };
const queue: Array<() => void> = [];

/** Runs `verify` when its turn comes, or rejects with Busy at once when RUNNING run and WAITING wait. */
export async function gated<T>(verify: () => Promise<T>): Promise<T> {
  if (counts.running < RUNNING) counts.running += 1;
  else if (queue.length < WAITING) {
    const turn = new Promise<void>((resolve) => queue.push(resolve));
    counts.mostWaiting = Math.max(counts.mostWaiting, queue.length);
    await turn;
  } else {
    counts.refused += 1;
    throw new Busy();
  }
  counts.started += 1;
  counts.mostRunning = Math.max(counts.mostRunning, counts.running);
  try {
    return await verify();
  } finally {
    // The slot goes to the next in line as it is, so `running` never passes RUNNING.
    const next = queue.shift();
    if (next) next();
    else counts.running -= 1;
  }
}

/** The gate's counts so far, for the tests and the benchmark to observe. */
export function gateCounts() {
  return { ...counts, waiting: queue.length };
}
