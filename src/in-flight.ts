/** What is under way, by number, in a plain object: a long-lived Map kept what it held alive until a full collection. */
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
