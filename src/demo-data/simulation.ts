/**
 * The state the month-by-month simulation carries: the company, the documents of the month being
 * generated, and per customer its pending events and the recent history that later documents refer to
 * (what it bought, for complaints and warranty claims; its recent activities, for enquiries).
 */
import type { Day, Month } from './calendar';
import { EventQueue, type SimEvent } from './events';
import type { Company } from './masters';
import type { Activity, Customer, Invoice, Product, WarrantyRequest } from './model';
import type { MonthBatch } from './batch';
import type { Random } from './random';

export interface Purchase {
  product: Product;
  invoice: Invoice;
}

export interface CustomerState {
  queue: EventQueue;
  /** Invoices waiting for the next payment collection note. */
  pcnDue: Invoice[];
  purchases: Purchase[];
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

export function rememberPurchase(state: CustomerState, purchase: Purchase): void {
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
