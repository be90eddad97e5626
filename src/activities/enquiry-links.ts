/**
 * UpdateActivityNoAndOrderToCustInEnquiryMst (docs/behaviour.md). The customer the order went to is
 * not bounded by the user's scope: a lead may turn into an order for another officer's dealer.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { invalid, notFound } from '../errors';
import { storedCustomerCode } from '../operations/master-codes';
import type { Clock } from '../operations/types';
import type { Enquiry } from './records';
import { findActivity, findEnquiry, linkEnquiry, type EnquiryLinks } from './repository';
import { assertVisible, type OfficerBound } from '../users/principal-scope';

export interface EnquiryLinkInput extends EnquiryLinks {
  enquiryNo: string;
}

/** The linked enquiry and the call's Message; the same links again change nothing. */
export async function linkEnquiryTo(db: Kysely<Database>, clock: Clock, input: EnquiryLinkInput, allowed?: OfficerBound) {
  return db.transaction().execute(async (trx) => {
    const unknown = () => notFound('EnquiryNo', `Enquiry '${input.enquiryNo}' does not exist`);
    const enquiry = await findEnquiry(trx, input.enquiryNo);
    if (!enquiry) throw unknown();
    assertVisible(allowed, enquiry.SalesOfficer, unknown);
    const links: EnquiryLinks = {
      activityNo: input.activityNo === undefined ? undefined : await activityOf(trx, enquiry, input.activityNo, allowed),
      orderToCustomer: input.orderToCustomer === undefined ? undefined : await existingCustomer(trx, input.orderToCustomer),
    };
    const changed = await linkEnquiry(trx, enquiry.EnquiryNo, links, clock.now().toISOString());
    const linked = (await findEnquiry(trx, enquiry.EnquiryNo))!;
    const message = changed ? `Enquiry ${linked.EnquiryNo} updated.` : `Enquiry ${linked.EnquiryNo} already carried these links; nothing was changed.`;
    return { data: linked, message };
  });
}

/**
 * The stored number of the activity. An enquiry arises from a visit or demo at its own customer, so
 * an activity of another customer is refused rather than linked by mistake.
 */
async function activityOf(db: Kysely<Database>, enquiry: Enquiry, activityNo: string, allowed: OfficerBound): Promise<string> {
  const unknown = () => notFound('ActivityNo', `Activity '${activityNo}' does not exist`);
  const activity = await findActivity(db, activityNo);
  if (!activity) throw unknown();
  assertVisible(allowed, activity.SalesOfficer, unknown);
  if (activity.CustomerCode !== enquiry.CustomerCode) {
    throw invalid(
      'ActivityNo',
      `activity ${activity.ActivityNo} belongs to customer ${activity.CustomerCode}, enquiry ${enquiry.EnquiryNo} to customer ${enquiry.CustomerCode}`,
    );
  }
  return activity.ActivityNo;
}

async function existingCustomer(db: Kysely<Database>, code: string): Promise<string> {
  const stored = await storedCustomerCode(db, code);
  if (stored === undefined) throw notFound('OrderToCustomer', `Customer '${code}' does not exist`);
  return stored;
}
