/**
 * UpdateWarrantyTransportDetails (docs/behaviour.md). The details are one set: a call replaces all
 * four, so an optional detail left out is cleared.
 */
import type { Kysely } from 'kysely';
import type { Database, WarrantyStatus } from '../db/schema';
import { AppError } from '../errors';
import { lockWarrantyWrites, nextValue } from './counters';
import { dispatchRequest, findRequest, unknownRequest, visibleRequest, type TransportDetails, type WarrantyRequestRow } from './repository';
import { requestView } from './request-view';
import type { OfficerBound } from '../users/principal-scope';

export interface TransportInput {
  requestNo: string;
  transporter: string;
  lrNo: string;
  lrDate?: string;
  vehicleNo?: string;
}

const MESSAGES = {
  dispatched: 'is DISPATCHED with the transport details.',
  corrected: 'has its transport details corrected.',
  unchanged: 'already has these transport details: nothing was changed.',
};

const OPEN_FOR_TRANSPORT: readonly WarrantyStatus[] = ['SUBMITTED', 'DISPATCHED'];

/** The request as it stands after the call, and the call's Message. */
export async function updateTransportDetails(db: Kysely<Database>, input: TransportInput, now: Date, allowed?: OfficerBound) {
  return db.transaction().execute(async (trx) => {
    await lockWarrantyWrites(trx);
    const current = await visibleRequest(trx, input.requestNo, allowed);
    if (!OPEN_FOR_TRANSPORT.includes(current.status)) throw wrongState(current);
    const details: TransportDetails = {
      transporter: input.transporter,
      lr_no: input.lrNo,
      lr_date: input.lrDate ?? null,
      vehicle_no: input.vehicleNo ?? null,
    };
    const same = current.transporter === details.transporter && current.lr_no === details.lr_no && current.lr_date === details.lr_date && current.vehicle_no === details.vehicle_no;
    if (current.status === 'DISPATCHED' && same) return answer(current, 'unchanged');
    const change = { changeSeq: await nextValue(trx, 'warranty_change_seq'), updatedAt: now.toISOString() };
    // The state is guarded in the UPDATE itself (and the version read above), so whatever happened since
    // the read, a request that has moved on is never dispatched again.
    if (!(await dispatchRequest(trx, current.request_no, current.version, details, change))) {
      throw await refusal(trx, current.request_no);
    }
    const updated = await findRequest(trx, current.request_no);
    return answer(updated!, current.status === 'SUBMITTED' ? 'dispatched' : 'corrected');
  });
}

function answer(row: WarrantyRequestRow, outcome: keyof typeof MESSAGES) {
  const request = requestView(row);
  return { data: request, message: `Warranty request ${request.RequestNo} ${MESSAGES[outcome]}` };
}

/** Why the guarded UPDATE changed nothing, read again after it. */
async function refusal(db: Kysely<Database>, requestNo: string): Promise<AppError> {
  const now = await findRequest(db, requestNo);
  if (!now) return unknownRequest(requestNo);
  if (!OPEN_FOR_TRANSPORT.includes(now.status)) return wrongState(now);
  return new AppError('CONFLICT', `RequestNo: request ${requestNo} was changed at the same time; send the details again`, 'RequestNo');
}

function wrongState(row: WarrantyRequestRow): AppError {
  return new AppError(
    'INVALID_STATE',
    `RequestNo: warranty request ${row.request_no} is ${row.status}; transport details can be set only while it is SUBMITTED or DISPATCHED`,
    'RequestNo',
  );
}
