/**
 * The SQLite worker threads of one database: one writer and a few readers beside it in WAL mode, each
 * lent to one user at a time; a short read takes the writer when every reader is lent. ':memory:'
 * cannot be shared between connections: the writer alone.
 */
import { WorkerGoneError, WorkerLink } from './worker-link';
import { WORKER_NICE } from './protocol';
import { WORKER_MESSAGE_ROWS } from '../../tunables';

export interface WorkerPoolOptions {
  file: string;
  /** Reader threads beside the writer; 0 = the writer serves reads too (always so for ':memory:'). */
  readers: number;
  /** SQLite's busy_timeout of every connection (DB_BUSY_TIMEOUT_MS). */
  busyTimeoutMs: number;
  /** Longest wait for a worker to be lent (DB_ACQUIRE_TIMEOUT_MS); then the caller gets an error. */
  acquireTimeoutMs: number;
}

/** A caller waited longer than the acquire timeout for a worker: the database is too busy to answer. */
class WorkerWaitTimeoutError extends Error {
  constructor(waitedMs: number) {
    super(`timed out after ${waitedMs} ms waiting for an SQLite worker (DB_ACQUIRE_TIMEOUT_MS)`);
    this.name = 'WorkerWaitTimeoutError';
  }
}

/** One worker place: the live worker in it changes when one dies and is replaced. */
export class Slot {
  link: WorkerLink | undefined;
  /** Settles when the worker being started in this place is up (or could not start). */
  starting: Promise<void> = Promise.resolve();
  busy = false;

  constructor(readonly group: SlotGroup) {}

  /** The live worker, waiting for a replacement that is starting; an error when there is none. */
  async current(): Promise<WorkerLink> {
    if (!this.link?.alive) await this.starting;
    if (!this.link?.alive) throw new WorkerGoneError('no worker could be started in its place');
    return this.link;
  }
}

/** One who waits for a slot; `borrows`: a short read, which may take the lender's slot too. */
interface Waiter {
  readonly take: (slot: Slot) => void;
  readonly borrows: boolean;
}

/**
 * Slots lent out exclusively, waiters served in order; a waiter gives up after `timeoutMs`. A group may
 * lend its free slots to another group's short reads (the writer to the readers': see lendTo).
 */
export class SlotGroup {
  readonly slots: Slot[] = [];
  private readonly queue: Waiter[] = [];
  private lender: SlotGroup | undefined;
  private borrower: SlotGroup | undefined;

  constructor(private readonly timeoutMs: number) {}

  /** `borrower`'s short reads may take this group's slots whenever none of this group's own waits for one. */
  lendTo(borrower: SlotGroup): void {
    this.borrower = borrower;
    borrower.lender = this;
  }

  /** A slot of this group; with `borrow` (a short read), or one the lender has free when this group has none. */
  acquire(borrow = false): Promise<Slot> {
    const free = this.takeFree() ?? (borrow && this.lender?.queue.length === 0 ? this.lender.takeFree() : undefined);
    if (free) return Promise.resolve(free);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        borrows: borrow,
        take: (slot) => {
          clearTimeout(timer);
          resolve(slot);
        },
      };
      const timer = setTimeout(() => {
        this.queue.splice(this.queue.indexOf(waiter), 1);
        reject(new WorkerWaitTimeoutError(this.timeoutMs));
      }, this.timeoutMs);
      this.queue.push(waiter);
    });
  }

  /** Gives back one of this group's slots: to this group's next waiter, else to a borrower's short read. */
  release(slot: Slot): void {
    const next = this.queue.shift() ?? this.borrower?.takeBorrowing();
    if (next) next.take(slot);
    else slot.busy = false;
  }

  get waiting(): number {
    return this.queue.length;
  }

  private takeFree(): Slot | undefined {
    const free = this.slots.find((slot) => !slot.busy);
    if (free) free.busy = true;
    return free;
  }

  private takeBorrowing(): Waiter | undefined {
    const at = this.queue.findIndex((waiter) => waiter.borrows);
    return at < 0 ? undefined : this.queue.splice(at, 1)[0];
  }
}

export class WorkerPool {
  readonly writer: SlotGroup;
  readonly readers: SlotGroup;
  private closed = false;
  private readonly starting = new Set<Promise<void>>();

  constructor(private readonly options: WorkerPoolOptions) {
    this.writer = new SlotGroup(options.acquireTimeoutMs);
    this.readers = new SlotGroup(options.acquireTimeoutMs);
    // Snapshots may hold every reader (engine.ts): short reads then go on beside the writes.
    this.writer.lendTo(this.readers);
  }

  /** Starts the writer first (it creates the file and sets WAL), then the readers. */
  async start(): Promise<void> {
    await this.fill(new Slot(this.writer), true);
    const readers = this.options.file === ':memory:' ? 0 : this.options.readers;
    await Promise.all(Array.from({ length: readers }, () => this.fill(new Slot(this.readers), false)));
  }

  /** Where reads go: the readers when there are any. */
  get readGroup(): SlotGroup {
    return this.readers.slots.length > 0 ? this.readers : this.writer;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.starting]);
    const slots = [...this.readers.slots, ...this.writer.slots];
    await Promise.all(slots.map(async (slot) => slot.link?.stop()));
  }

  /** Counts for metrics and tests: workers, lent out, requests waiting. */
  stats(): { workers: number; busy: number; waiting: number } {
    const slots = [...this.writer.slots, ...this.readers.slots];
    return {
      workers: slots.length,
      busy: slots.filter((s) => s.busy).length,
      waiting: this.writer.waiting + this.readers.waiting,
    };
  }

  private fill(slot: Slot, writer: boolean): Promise<void> {
    slot.starting = this.startIn(slot, writer);
    return slot.starting;
  }

  private async startIn(slot: Slot, writer: boolean): Promise<void> {
    slot.link = await WorkerLink.start(
      {
        file: this.options.file,
        driverPath: require.resolve('better-sqlite3'),
        writer,
        busyTimeoutMs: this.options.busyTimeoutMs,
        partRows: WORKER_MESSAGE_ROWS,
        nice: WORKER_NICE,
      },
      () => this.replace(slot, writer),
    );
    if (!slot.group.slots.includes(slot)) slot.group.slots.push(slot);
  }

  /** A worker died: start another in its place (its holder's requests have already failed). */
  private replace(slot: Slot, writer: boolean): void {
    if (this.closed) return;
    const started = this.fill(slot, writer)
      .catch(() => this.retryLater(slot, writer))
      .finally(() => this.starting.delete(started));
    this.starting.add(started);
  }

  private retryLater(slot: Slot, writer: boolean): void {
    if (!this.closed) setTimeout(() => this.replace(slot, writer), 1000).unref();
  }
}
