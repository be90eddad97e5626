/**
 * The state the month-by-month simulation carries: the company, the month's documents, and per
 * customer what falls due later and the recent history that later documents refer to.
 */
import type { Day, Month } from './calendar';
import type { Company } from './masters';
import type { Activity, Customer, Invoice, Order, OrderLine, Pcn, Product, WarrantyRequest } from './model';
import type { MonthBatch } from './batch';
import type { PaymentMethod } from '../db/schema';
import type { Random } from './random';

export interface Delivery {
  orderLine: OrderLine;
  quantity: number;
  value: number;
}

/** Something that happens to a customer on a later day; what falls after the as-of date never happens. */
export type SimEvent =
  | { kind: 'invoice'; date: Day; order: Order; deliveries: Delivery[] }
  | { kind: 'receipt'; date: Day; amount: number; method?: PaymentMethod; reference?: string }
  | { kind: 'pcn'; date: Day }
  | { kind: 'debitNote'; date: Day; pcn: Pcn; amount: number; reason: string }
  | { kind: 'creditNote'; date: Day; amount: number };

/** A customer's events by day; those of one day keep the order they were scheduled in. */
export class EventQueue {
  private readonly events: SimEvent[] = [];

  push(event: SimEvent): void {
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

interface CustomerState {
  queue: EventQueue;
  /** Invoices waiting for the next payment collection note. */
  pcnDue: Invoice[];
  /** What it bought lately, for complaints and warranty claims. */
  purchases: { product: Product; invoice: Invoice }[];
  /** Its latest activities, for enquiries. */
  activities: Activity[];
  /** Money on account (advances, credit notes, a credit opening balance) that later invoices use up. */
  onAccount: number;
}

export interface Simulation {
  random: Random;
  company: Company;
  start: Day;
  asOf: Day;
  batch: MonthBatch;
  states: Map<string, CustomerState>;
  /** Warranty requests of the whole period, written last (their numbers follow creation time). */
  warranty: WarrantyRequest[];
}

const KEEP_PURCHASES = 6;
const KEEP_ACTIVITIES = 3;

export function newCustomerState(): CustomerState {
  return { queue: new EventQueue(), pcnDue: [], purchases: [], activities: [], onAccount: 0 };
}

export function stateOf(sim: Simulation, customer: Customer): CustomerState {
  return sim.states.get(customer.code)!;
}

export function schedule(sim: Simulation, customer: Customer, event: SimEvent): void {
  if (event.date <= sim.asOf) stateOf(sim, customer).queue.push(event);
}

export function rememberPurchase(state: CustomerState, purchase: CustomerState['purchases'][number]): void {
  state.purchases.push(purchase);
  if (state.purchases.length > KEEP_PURCHASES) state.purchases.shift();
}

export function rememberActivity(state: CustomerState, activity: Activity): void {
  state.activities.push(activity);
  if (state.activities.length > KEEP_ACTIVITIES) state.activities.shift();
}

/** A working-hours time of day in UTC seconds (09:00-19:00 India time). */
export function officeSeconds(random: Random): number {
  return 3 * 3600 + 30 * 60 + random.int(0, 10 * 3600 - 1);
}

/** `count` working days of the month drawn at random (a day may come twice), in order. */
export function drawDays(sim: Simulation, month: Month, count: number): Day[] {
  const days: Day[] = [];
  for (let i = 0; i < count; i++) days.push(sim.random.pick(month.workingDays));
  return days.sort((a, b) => a - b);
}
