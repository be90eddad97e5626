/**
 * Warranty requests for products customers bought, in every status of their life: SUBMITTED ->
 * DISPATCHED -> RECEIVED -> APPROVED or REJECTED -> CLOSED, each step bumping the version. A few get
 * attachments (small real files), so the file listing and download have something to show.
 */
import { createHash } from 'node:crypto';
import type { Database, WarrantyStatus } from '../db/schema';
import { TRANSPORTERS } from './catalog';
import { formatDay, timestamp, type Day, type Month } from './calendar';
import type { DocumentNumbers } from './batch';
import type { Customer, WarrantyRequest } from './model';
import { officeSeconds, stateOf, type Simulation } from './simulation';
import type { Random } from './random';
import { samplePdf, samplePng, sampleJpeg } from './sample-files';

const REQUESTS_PER_MONTH = 0.035;
const COMPLAINTS = [
  'Motor not starting, humming sound',
  'Water output reduced after two months',
  'Winding burnt after voltage fluctuation',
  'Fan regulator not working, speed stuck',
  'Excess noise and vibration',
  'Heating element failed',
  'Body leakage from tank',
  'Jar coupler broken within warranty',
  'LED flickering and dimming',
  'Insulation damaged on new coil',
  'Overheating under normal load',
];
/** How far requests got by the as-of date, before the calendar cuts them short. */
const TARGETS: WarrantyStatus[] = ['SUBMITTED', 'DISPATCHED', 'RECEIVED', 'APPROVED', 'REJECTED', 'CLOSED'];
const TARGET_WEIGHTS = [10, 10, 10, 15, 15, 40];

export function raiseWarrantyRequests(sim: Simulation, customer: Customer, month: Month): void {
  const { random } = sim;
  if (month.workingDays.length === 0) return;
  const count = random.poisson(REQUESTS_PER_MONTH * (0.5 + 0.5 * customer.weight));
  for (let i = 0; i < count; i++) raiseRequest(sim, customer, random.pick(month.workingDays));
}

function raiseRequest(sim: Simulation, customer: Customer, day: Day): void {
  const { random } = sim;
  const bought = stateOf(sim, customer).purchases.filter((p) => p.invoice.date < day);
  const purchase = bought.length > 0 && random.chance(0.8) ? random.pick(bought) : null;
  const product = purchase?.product ?? random.pick(sim.company.products);
  const purchaseDate = purchase ? purchase.invoice.date : random.chance(0.5) ? day - random.int(30, 300) : null;
  const request: WarrantyRequest = {
    no: '',
    date: day,
    customer,
    product,
    invoice: purchase?.invoice ?? null,
    purchaseDate,
    clientRequestId: random.chance(0.7) ? uuid(random) : null,
    serialNo: `${product.categoryCode.slice(0, 2)}${formatDay(purchaseDate ?? day).slice(2, 4)}${random.digits(7)}`,
    complaint: random.pick(COMPLAINTS),
    status: 'SUBMITTED',
    transport: null,
    createdAt: timestamp(day, officeSeconds(random)),
    updatedAt: '',
    version: 1,
    changeSeq: 0,
  };
  request.updatedAt = request.createdAt;
  advance(sim, request, random.weighted(TARGETS, TARGET_WEIGHTS));
  sim.warranty.push(request);
}

/** Walks the request through its steps up to the target status or the as-of date. */
function advance(sim: Simulation, request: WarrantyRequest, target: WarrantyStatus): void {
  const { random } = sim;
  const decision: WarrantyStatus = target === 'REJECTED' ? 'REJECTED' : 'APPROVED';
  const steps: [WarrantyStatus, number][] = [
    ['DISPATCHED', random.int(1, 5)],
    ['RECEIVED', random.int(2, 8)],
    [decision, random.int(1, 7)],
    ['CLOSED', random.int(3, 15)],
  ];
  let day = request.date;
  for (const [status, wait] of steps) {
    if (request.status === target || day + wait > sim.asOf) return;
    day += wait;
    if (status === 'DISPATCHED') {
      request.transport = {
        transporter: random.pick(TRANSPORTERS),
        lrNo: `LR${random.digits(8, true)}`,
        lrDate: day,
        vehicleNo: `${request.customer.stateCode}${String(random.int(1, 60)).padStart(2, '0')}${letters(random, 2)}${random.digits(4, true)}`,
      };
    }
    request.status = status;
    request.version += 1;
    request.updatedAt = timestamp(day, officeSeconds(random));
  }
}

/** Request numbers follow creation; the sync sequence (change_seq) follows the last change, as live changes assign it. */
export function numberWarrantyRequests(requests: WarrantyRequest[], numbers: DocumentNumbers): void {
  requests.sort((a, b) => compare(a.createdAt, b.createdAt));
  for (const r of requests) r.no = numbers.next('warrantyRequest');
  const byChange = requests.slice().sort((a, b) => compare(a.updatedAt, b.updatedAt));
  byChange.forEach((r, i) => {
    r.changeSeq = i + 1;
  });
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function letters(random: Random, count: number): string {
  let s = '';
  for (let i = 0; i < count; i++) s += String.fromCharCode(65 + random.int(0, 25));
  return s;
}

/** A version-4 UUID drawn from the generator, as the app would send as ClientRequestId. */
function uuid(random: Random): string {
  const hex = Array.from({ length: 32 }, () => random.int(0, 15).toString(16));
  hex[12] = '4';
  hex[16] = (8 + random.int(0, 3)).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

const REQUESTS_WITH_FILES = 8;

export function sampleWarrantyFiles(
  requests: WarrantyRequest[],
  numbers: DocumentNumbers,
): Database['warranty_files'][] {
  const step = Math.max(1, Math.floor(requests.length / REQUESTS_WITH_FILES));
  const rows: Database['warranty_files'][] = [];
  for (let i = 0, picked = 0; i < requests.length && picked < REQUESTS_WITH_FILES; i += step, picked++) {
    const request = requests[i];
    const files: [string, string, Buffer][] = [
      ['photo_1.png', 'image/png', samplePng((picked * 37) % 256)],
      ['rating_plate.jpg', 'image/jpeg', sampleJpeg(40 + picked * 20)],
    ];
    if (picked % 2 === 0) {
      files.push([
        'invoice_copy.pdf',
        'application/pdf',
        samplePdf(`Invoice copy ${request.invoice?.no ?? 'not available'} for ${request.no}`),
      ]);
    }
    files.forEach(([fileName, contentType, content], k) => {
      rows.push({
        file_id: numbers.next('warrantyFile'),
        request_no: request.no,
        file_name: fileName,
        content_type: contentType,
        size_bytes: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
        content,
        created_at: new Date(Date.parse(request.createdAt) + (k + 1) * 60_000).toISOString(),
      });
    });
  }
  return rows;
}
