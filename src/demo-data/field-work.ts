/**
 * What officers log in the field: activities that their managers approve or reject, enquiries
 * (some linked to an activity and to the customer the order went to), and complaints.
 */
import { timestamp, type Day, type Month } from './calendar';
import type { Activity, Customer, Officer } from './model';
import { drawDays, officeSeconds, rememberActivity, stateOf, type Simulation } from './simulation';

const ACTIVITIES_PER_MONTH = 0.25;
const ENQUIRIES_PER_MONTH = 0.1;
const COMPLAINTS_PER_MONTH = 0.04;

const ACTIVITY_TYPES = ['VISIT', 'DEMO', 'MEETING', 'COLLECTION', 'SERVICE'];
const ACTIVITY_WEIGHTS = [50, 15, 15, 12, 8];
const ACTIVITY_TEXT: Record<string, string[]> = {
  VISIT: [
    'Routine visit, checked stock and display',
    'Visit for new season order',
    'Introduced new product range',
    'Followed up pending order',
  ],
  DEMO: [
    'Product demonstration for farmers',
    'Demo of BLDC fans at showroom',
    'Pump installation demo at site',
    'Counter demo for retailers',
  ],
  MEETING: [
    'Dealer meet and scheme briefing',
    'Annual target discussion',
    'Meeting with contractor group',
    'Retailer meet at dealer premises',
  ],
  COLLECTION: [
    'Collection visit for overdue invoices',
    'Collected cheques against outstanding',
    'Reconciled ledger with dealer',
  ],
  SERVICE: ['Joint visit with service engineer', 'Attended warranty complaint at site', 'Checked returned stock'],
};
const APPROVAL_REMARKS = [
  'Approved',
  'OK, follow up on the order',
  'Good coverage',
  'Approved, share photos next time',
];
const REJECTION_REMARKS = [
  'Duplicate entry for the same visit',
  'No proof of visit attached',
  'Outside assigned territory',
  'Expense not covered by policy',
];
const COMPLAINT_TEXT = [
  'Product not working after installation',
  'Short supply against invoice',
  'Damaged in transit',
  'Excess noise during operation',
  'Wrong model delivered',
  'Frequent tripping reported',
];

export function logFieldWork(sim: Simulation, customer: Customer, month: Month): void {
  const { random } = sim;
  if (month.workingDays.length === 0) return;
  const busy = 0.6 + 0.4 * customer.weight;
  for (const day of drawDays(sim, month, random.poisson(ACTIVITIES_PER_MONTH * busy))) logActivity(sim, customer, day);
  for (const day of drawDays(sim, month, random.poisson(ENQUIRIES_PER_MONTH * busy))) logEnquiry(sim, customer, day);
  for (const day of drawDays(sim, month, random.poisson(COMPLAINTS_PER_MONTH * customer.weight)))
    logComplaint(sim, customer, day);
}

/** Decided a few days later by the officer's area or zonal manager; recent ones still pending. */
function logActivity(sim: Simulation, customer: Customer, date: Day): void {
  const { random } = sim;
  const type = random.weighted(ACTIVITY_TYPES, ACTIVITY_WEIGHTS);
  const activity: Activity = {
    no: '',
    date,
    customer,
    type,
    description: random.pick(ACTIVITY_TEXT[type]),
    status: 'PENDING',
    decidedBy: null,
    decidedAt: null,
    remarks: null,
  };
  const decidedOn = date + random.int(1, 6);
  if (decidedOn <= sim.asOf && !random.chance(0.03)) {
    const approved = random.chance(0.88);
    activity.status = approved ? 'APPROVED' : 'REJECTED';
    activity.decidedBy = decider(sim, customer.officer);
    activity.decidedAt = timestamp(decidedOn, officeSeconds(random));
    activity.remarks = approved
      ? random.chance(0.5)
        ? random.pick(APPROVAL_REMARKS)
        : null
      : random.pick(REJECTION_REMARKS);
  }
  sim.batch.activities.push(activity);
  rememberActivity(stateOf(sim, customer), activity);
}

function decider(sim: Simulation, officer: Officer): Officer {
  const area = officer.manager!;
  return sim.random.chance(0.8) || !area.manager ? area : area.manager;
}

function logEnquiry(sim: Simulation, customer: Customer, date: Day): void {
  const { random } = sim;
  const product = random.pick(sim.company.productsByProfitCenter.get(random.pick(customer.profitCenters))!);
  const earlier = stateOf(sim, customer).activities.filter((a) => a.date <= date);
  const activity = earlier.length > 0 && random.chance(0.4) ? earlier[earlier.length - 1] : null;
  let orderTo: Customer | null = null;
  if (random.chance(0.35)) {
    const colleagues = sim.company.customersByOfficer.get(customer.officer.id)!;
    orderTo = random.chance(0.8) ? customer : random.pick(colleagues);
  }
  const linked = activity !== null || orderTo !== null;
  const updatedOn = linked ? Math.min(sim.asOf, date + random.int(0, 10)) : date;
  sim.batch.enquiries.push({
    no: '',
    date,
    customer,
    description: `Enquiry for ${random.int(1, 20) * product.packOf} x ${product.name}`,
    activity,
    orderTo,
    updatedAt: timestamp(updatedOn, officeSeconds(random)),
  });
}

/** Complaints about something the customer bought; older ones are mostly resolved. */
function logComplaint(sim: Simulation, customer: Customer, date: Day): void {
  const { random } = sim;
  const bought = stateOf(sim, customer).purchases.filter((p) => p.invoice.date <= date);
  if (bought.length === 0) return;
  const product = random.pick(bought).product;
  const old = date < sim.asOf - 45;
  sim.batch.complaints.push({
    no: '',
    date,
    customer,
    product,
    description: random.pick(COMPLAINT_TEXT),
    status: random.chance(old ? 0.92 : 0.4) ? 'RESOLVED' : 'OPEN',
  });
}
