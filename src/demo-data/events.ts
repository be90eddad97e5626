/**
 * Things that happen to a customer on a later day: a delivery of an order, a payment that falls
 * due, a cheque collection, a bounced-cheque charge, a credit note. Each customer keeps its own
 * queue, ordered by day (ties keep the order they were scheduled in), and the month loop takes
 * what falls due in the month. What falls after the as-of date never happens.
 */
import type { Day } from './calendar';
import type { Order, OrderLine, Pcn } from './model';
import type { PaymentMethod } from '../db/schema';

export interface Delivery {
  orderLine: OrderLine;
  quantity: number;
  value: number;
}

export type SimEvent =
  | { kind: 'invoice'; date: Day; order: Order; deliveries: Delivery[] }
  | { kind: 'receipt'; date: Day; amount: number; method?: PaymentMethod; reference?: string }
  | { kind: 'pcn'; date: Day }
  | { kind: 'debitNote'; date: Day; pcn: Pcn; amount: number; reason: string }
  | { kind: 'creditNote'; date: Day; amount: number };

export class EventQueue {
  private readonly events: SimEvent[] = [];

  push(event: SimEvent): void {
    // Insert after every event of the same day or earlier.
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.events[mid].date <= event.date) lo = mid + 1;
      else hi = mid;
    }
    this.events.splice(lo, 0, event);
  }

  /** The next event on or before `last`, removed from the queue. */
  takeDue(last: Day): SimEvent | undefined {
    return this.events.length > 0 && this.events[0].date <= last ? this.events.shift() : undefined;
  }
}
