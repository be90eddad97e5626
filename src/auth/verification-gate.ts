/**
 * The bound on password verifications at once (docs/operations.md, "Authentication"). scrypt runs on
 * libuv's thread pool, which response compression and file work share: without a bound, a few
 * dozen wrong passwords at once fill every thread and every other request waits behind them. So at
 * most RUNNING verifications run at once (half the pool, and fewer than the cores), and at most WAITING
 * wait for their turn, first come first served; past that an attempt is refused at once (Busy,
 * answered 503 with Retry-After) without computing anything.
 *
 * One gate per process, as the pool is one per process (UV_THREADPOOL_SIZE, 4 by default).
 */
import { availableParallelism } from 'node:os';

/**
 * Half of libuv's threads, the others staying free for compression and file work, and fewer than
 * this process's cores (scrypt is all CPU), so one is left for the event loop; at least one.
 */
export const RUNNING = Math.max(1, Math.min(Math.floor((Number(process.env.UV_THREADPOOL_SIZE) || 4) / 2), availableParallelism() - 1));
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

export interface GateCounts {
  /** Verifications started since the process started. */
  started: number;
  /** Attempts refused because the queue was full. */
  refused: number;
  running: number;
  waiting: number;
  /** The most that ever ran at once. */
  mostRunning: number;
  /** The most that ever waited at once. */
  mostWaiting: number;
}

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
export function gateCounts(): GateCounts {
  return { started: counts.started, refused: counts.refused, running: counts.running, waiting: queue.length, mostRunning: counts.mostRunning, mostWaiting: counts.mostWaiting };
}
