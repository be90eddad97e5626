/**
 * The business of the period, month by month. Each month is numbered and written before the next is
 * generated, so memory stays bounded whatever the scale; warranty requests are written at the end.
 */
import { monthsBetween, type Day, type Month } from './calendar';
import { DocumentNumbers, MonthBatch } from './batch';
import { collectAdvance, collectOpening, collectPcn, receive } from './collections';
import { logFieldWork } from './field-work';
import type { Company } from './masters';
import type { Customer } from './model';
import type { Random } from './random';
import { writeBatch, writeWarrantyRequests } from './rows';
import { deliver, placeOrders } from './sales';
import { newCustomerState, stateOf, type SimEvent, type Simulation } from './simulation';
import { numberWarrantyRequests, raiseWarrantyRequests, sampleWarrantyFiles } from './warranty';
import type { RowWriter } from './writer';

export async function generateTransactions(writer: RowWriter, company: Company, random: Random, start: Day, asOf: Day): Promise<DocumentNumbers> {
  const numbers = new DocumentNumbers();
  const sim: Simulation = { random, company, start, asOf, batch: new MonthBatch(), states: new Map(), warranty: [] };
  for (const customer of company.customers) sim.states.set(customer.code, newCustomerState());
  sim.batch.openings = company.customers;
  for (const customer of company.customers) collectOpening(sim, customer);
  for (const month of monthsBetween(start, asOf)) {
    for (const customer of company.customers) simulateMonth(sim, customer, month);
    numbers.numberBatch(sim.batch);
    await writeBatch(writer, sim.batch, start);
    sim.batch = new MonthBatch();
  }
  numberWarrantyRequests(sim.warranty, numbers);
  await writeWarrantyRequests(writer, sim.warranty);
  await writer.insert('warranty_files', sampleWarrantyFiles(sim.warranty, numbers));
  return numbers;
}

function simulateMonth(sim: Simulation, customer: Customer, month: Month): void {
  placeOrders(sim, customer, month);
  if (month.workingDays.length > 0) collectAdvance(sim, customer, sim.random.pick(month.workingDays));
  const queue = stateOf(sim, customer).queue;
  for (let event = queue.takeDue(month.last); event; event = queue.takeDue(month.last)) handle(sim, customer, event);
  logFieldWork(sim, customer, month);
  raiseWarrantyRequests(sim, customer, month);
}

function handle(sim: Simulation, customer: Customer, event: SimEvent): void {
  switch (event.kind) {
    case 'invoice':
      deliver(sim, event.date, event.order, event.deliveries);
      break;
    case 'receipt':
      receive(sim, customer, event.date, event.amount, event.method, event.reference);
      break;
    case 'pcn':
      collectPcn(sim, customer, event.date);
      break;
    case 'debitNote':
      sim.batch.debitNotes.push({ no: '', date: event.date, customer, pcn: event.pcn, amount: event.amount, reason: event.reason });
      break;
    case 'creditNote':
      sim.batch.creditNotes.push({ no: '', date: event.date, customer, amount: event.amount });
      stateOf(sim, customer).onAccount += event.amount;
      break;
  }
}
