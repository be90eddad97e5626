/**
 * What is under way (the server's open responses, the queries sent to a SQLite worker), each under a
 * number of its own until it is done.
 *
 * A plain object keyed by those numbers, not a Map or Set: a long-lived Map or Set that every request
 * enters and leaves, once one of its tables has been promoted to the old generation, keeps every later
 * table and what it held alive until a full collection
 * (docs/architecture.md, "Garbage on the request path").
 */
export class InFlight<T> {
  private nextId = 1;
  private entries = Object.create(null) as Record<number, T | undefined>;

  /** Keeps `value` and returns its number. */
  add(value: T): number {
    const id = this.nextId++;
    this.entries[id] = value;
    return id;
  }

  /** The value under `id`, which is forgotten; undefined when there is none. */
  take(id: number): T | undefined {
    const value = this.entries[id];
    if (value !== undefined) delete this.entries[id];
    return value;
  }

  values(): T[] {
    return Object.values(this.entries).filter((value): value is T => value !== undefined);
  }

  /** Every value, all forgotten. */
  takeAll(): T[] {
    const values = this.values();
    this.entries = Object.create(null) as Record<number, T | undefined>;
    return values;
  }
}
