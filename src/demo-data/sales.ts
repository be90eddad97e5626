/**
 * Orders and their deliveries: most delivered in full by one invoice, some in two, a few in part or
 * cancelled; recent ones still open. A few invoices are counter sales without an order.
 */
import { workingDayFrom, type Day, type Month } from './calendar';
import type { Customer, Invoice, InvoiceLine, Order, OrderLine, Product } from './model';
import { collectPayment } from './collections';
import { drawDays, rememberPurchase, schedule, stateOf, type Delivery, type Simulation } from './simulation';

/** Orders per average customer per month (scale 1: ~35,000 orders over the period). */
const ORDERS_PER_MONTH = 0.58;
const DIRECT_INVOICES_PER_MONTH = 0.02;

export function placeOrders(sim: Simulation, customer: Customer, month: Month): void {
  const { random } = sim;
  if (month.workingDays.length === 0) return;
  const scaleToMonth = month.workingDays.length / 26;
  const days = drawDays(sim, month, random.poisson(ORDERS_PER_MONTH * customer.weight * scaleToMonth));
  for (const day of days) placeOrder(sim, customer, day);
  const direct = drawDays(sim, month, random.poisson(DIRECT_INVOICES_PER_MONTH * customer.weight * scaleToMonth));
  for (const day of direct) invoiceDirect(sim, customer, day);
}

function placeOrder(sim: Simulation, customer: Customer, date: Day): void {
  const { random } = sim;
  const profitCenter = random.pick(customer.profitCenters);
  const products = random.sample(
    sim.company.productsByProfitCenter.get(profitCenter)!,
    random.weighted([1, 2, 3, 4, 5], [2, 3, 3, 2, 2]),
  );
  const lines: OrderLine[] = products.map((product, i) => {
    const quantity = orderQuantity(sim, product, customer);
    return { lineNo: i + 1, product, quantity, value: lineValue(product, quantity, customer) };
  });
  const order: Order = { no: '', date, customer, profitCenter, status: 'OPEN', lines };
  sim.batch.orders.push(order);
  const plan = random.next();
  if (plan < 0.05) {
    order.status = 'CANCELLED';
    return;
  }
  const first = workingDayFrom(date + random.int(0, 6));
  if (plan < 0.75) {
    planDeliveries(sim, order, [
      { date: first, deliveries: lines.map((l) => ({ orderLine: l, quantity: l.quantity, value: l.value })) },
    ]);
    return;
  }
  const [part, rest] = splitDeliveries(sim, lines);
  const shipments = [{ date: first, deliveries: part }];
  // Two shipments deliver everything; the rest of the orders keep a back-order that never ships.
  if (plan < 0.93 && rest.length > 0)
    shipments.push({ date: workingDayFrom(first + random.int(5, 25)), deliveries: rest });
  planDeliveries(sim, order, shipments);
}

/** Schedules the shipments and sets the order's status as it stands on the as-of date. */
function planDeliveries(sim: Simulation, order: Order, shipments: { date: Day; deliveries: Delivery[] }[]): void {
  let delivered = 0;
  for (const s of shipments) {
    schedule(sim, order.customer, { kind: 'invoice', date: s.date, order, deliveries: s.deliveries });
    if (s.date <= sim.asOf) for (const d of s.deliveries) delivered += d.quantity;
  }
  const ordered = order.lines.reduce((sum, l) => sum + l.quantity, 0);
  order.status = delivered === ordered ? 'CLOSED' : 'OPEN';
}

/** A first shipment (some lines, part quantities) and what remains of each line after it. */
function splitDeliveries(sim: Simulation, lines: OrderLine[]): [Delivery[], Delivery[]] {
  const { random } = sim;
  const part: Delivery[] = [];
  const rest: Delivery[] = [];
  lines.forEach((line, i) => {
    const skip = i > 0 && random.chance(0.3);
    const quantity = skip
      ? 0
      : line.quantity < 2
        ? line.quantity
        : Math.max(1, Math.min(line.quantity - 1, Math.round(line.quantity * (0.4 + random.next() * 0.4))));
    const value = quantity === line.quantity ? line.value : Math.round((line.value * quantity) / line.quantity);
    if (quantity > 0) part.push({ orderLine: line, quantity, value });
    if (quantity < line.quantity)
      rest.push({ orderLine: line, quantity: line.quantity - quantity, value: line.value - value });
  });
  return [part, rest];
}

/** An order delivery falls due: the invoice, its collection and its occasional credit note. */
export function deliver(sim: Simulation, date: Day, order: Order, deliveries: Delivery[]): void {
  const lines: InvoiceLine[] = deliveries.map((d, i) => ({
    lineNo: i + 1,
    product: d.orderLine.product,
    quantity: d.quantity,
    value: d.value,
    orderLine: d.orderLine,
  }));
  issueInvoice(sim, {
    no: '',
    date,
    customer: order.customer,
    profitCenter: order.profitCenter,
    order,
    lines,
    amount: 0,
  });
}

function invoiceDirect(sim: Simulation, customer: Customer, date: Day): void {
  const { random } = sim;
  const profitCenter = random.pick(customer.profitCenters);
  const products = random.sample(sim.company.productsByProfitCenter.get(profitCenter)!, random.int(1, 2));
  const lines: InvoiceLine[] = products.map((product, i) => {
    const quantity = orderQuantity(sim, product, customer);
    return { lineNo: i + 1, product, quantity, value: lineValue(product, quantity, customer), orderLine: null };
  });
  issueInvoice(sim, { no: '', date, customer, profitCenter, order: null, lines, amount: 0 });
}

function issueInvoice(sim: Simulation, invoice: Invoice): void {
  const { random } = sim;
  invoice.amount = invoice.lines.reduce((sum, l) => sum + l.value, 0);
  sim.batch.invoices.push(invoice);
  const state = stateOf(sim, invoice.customer);
  for (const line of invoice.lines) rememberPurchase(state, { product: line.product, invoice });
  collectPayment(sim, invoice);
  // Scheme discounts, rate differences and transit damage come back as credit notes.
  if (random.chance(0.04)) {
    const amount = Math.max(100, Math.round((invoice.amount * (0.02 + random.next() * 0.06)) / 100) * 100);
    schedule(sim, invoice.customer, {
      kind: 'creditNote',
      date: workingDayFrom(invoice.date + random.int(5, 30)),
      amount,
    });
  }
}

/** Quantities in the product's pack size; bigger dealers order more. */
function orderQuantity(sim: Simulation, product: Product, customer: Customer): number {
  const [min, max] = product.quantity;
  const f = sim.random.next();
  const size = customer.weight >= 3 ? 1.4 : customer.weight < 1 ? 0.5 : 0.8;
  const raw = min + (max - min) * f * f * size;
  return Math.max(min, Math.round(raw / product.packOf) * product.packOf);
}

/** List price less the customer's trade discount, in paise. */
function lineValue(product: Product, quantity: number, customer: Customer): number {
  return Math.round((product.unitPrice * quantity * (10_000 - customer.discountBps)) / 10_000);
}
