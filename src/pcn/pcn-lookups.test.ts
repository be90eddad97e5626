import type { Engine } from '../db/engine';
import type { Database } from '../db/schema';
import { ENGINES, suiteEngine } from '../../test/support/engines';
import { CUSTOMERS, insertMasterData } from '../../test/support/fixture';
import { runOperation } from '../../test/support/operation';
import { CHEQUES, expectedCheque, expectedChequeList } from '../../test/support/cheques';
import { getPCNDebitNotes, getPCNDetails, getPCNInvoices, getPCNList } from './operations';
import { principal, seesOfficer } from '../users/test-fixture';

const INVOICES: Database['invoices'][] = [
  {
    invoice_no: 'INV002',
    invoice_date: '2026-01-12',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC2',
    order_no: null,
    amount: 250000,
  },
  {
    invoice_no: 'INV001',
    invoice_date: '2026-01-10',
    customer_code: 'C001',
    sales_officer_id: 'SO01',
    profit_center_code: 'PC1',
    order_no: null,
    amount: 500000,
  },
  {
    invoice_no: 'INV003',
    invoice_date: '2026-02-01',
    customer_code: 'C004',
    sales_officer_id: 'SO03',
    profit_center_code: 'PC2',
    order_no: null,
    amount: 800000,
  },
];

const PCN_INVOICES: Database['pcn_invoices'][] = [
  { pcn_no: 'PCN001', invoice_no: 'INV002', adjusted_amount: 200000 },
  { pcn_no: 'PCN001', invoice_no: 'INV001', adjusted_amount: 400000 },
  { pcn_no: 'PCN002', invoice_no: 'INV003', adjusted_amount: 800000 },
];

// DN001 and DN002 share a date (number breaks the tie); DN003 is earlier and comes first.
const DEBIT_NOTES: Database['pcn_debit_notes'][] = [
  { debit_note_no: 'DN002', pcn_no: 'PCN001', note_date: '2026-03-02', amount: 15000, reason: 'Bank charges' },
  { debit_note_no: 'DN001', pcn_no: 'PCN001', note_date: '2026-03-02', amount: 5000, reason: 'Late payment interest' },
  { debit_note_no: 'DN003', pcn_no: 'PCN001', note_date: '2026-02-28', amount: 2550, reason: 'Cheque return charges' },
  { debit_note_no: 'DN004', pcn_no: 'PCN003', note_date: '2026-02-21', amount: 1000, reason: 'Handling' },
];

const customerName = (code: string) => CUSTOMERS.find((x) => x.code === code)!.name;
const chequeRow = (c: Database['pcn']) => expectedCheque(c, customerName(c.customer_code));
/** Expected getPCNList rows: the fixture filtered, newest first. */
const expectedList = (keep: (c: Database['pcn']) => boolean) => expectedChequeList(CHEQUES, customerName, keep);

/** The master data, the invoices and the cheques with the invoices and debit notes they cover. */
async function insertCheques(engine: Engine): Promise<void> {
  await insertMasterData(engine.db);
  await engine.db.insertInto('invoices').values(INVOICES).execute();
  await engine.db.insertInto('pcn').values(CHEQUES).execute();
  await engine.db.insertInto('pcn_invoices').values(PCN_INVOICES).execute();
  await engine.db.insertInto('pcn_debit_notes').values(DEBIT_NOTES).execute();
}

const ids = (data: unknown) => (data as { PDCID: string }[]).map((r) => r.PDCID);

describe.each(ENGINES)('PCN lookups: %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertCheques(engine),
  );

  describe('getPCNList', () => {
    const run = (fields: Record<string, string> = {}) => runOperation(getPCNList, engine, fields);

    it('lists every cheque newest first when called with nothing', async () => {
      const { data } = await run();
      expect(data).toEqual(expectedList(() => true));
      expect(ids(data)).toEqual(['PDC005', 'PDC003', 'PDC002', 'PDC001', 'PDC004']);
    });

    it('filters by officer and by customer, any case', async () => {
      expect((await run({ SalesOfficer: 'so01' })).data).toEqual(expectedList((c) => c.sales_officer_id === 'SO01'));
      expect((await run({ Customer: 'c001' })).data).toEqual(expectedList((c) => c.customer_code === 'C001'));
      expect(ids((await run({ SalesOfficer: 'SO01', Customer: 'C002' })).data)).toEqual(['PDC005']);
    });

    it('filters by payment type and payment method, any case', async () => {
      expect((await run({ PaymentType: 'pdc' })).data).toEqual(expectedList((c) => c.payment_type === 'PDC'));
      expect((await run({ PaymentType: 'Advance' })).data).toEqual(expectedList((c) => c.payment_type === 'ADVANCE'));
      expect((await run({ PaymentMethod: 'cheque' })).data).toEqual(expectedList((c) => c.payment_method === 'CHEQUE'));
      expect(ids((await run({ PaymentType: 'PDC', PaymentMethod: 'dd' })).data)).toEqual(['PDC005']);
      expect((await run({ PaymentType: 'CURRENT', PaymentMethod: 'UPI' })).data).toEqual([]);
    });

    it('finds nothing for an officer or customer that does not exist', async () => {
      expect((await run({ SalesOfficer: 'SO99' })).data).toEqual([]);
      expect((await run({ Customer: 'C999' })).data).toEqual([]);
    });

    it('rejects an unknown payment type or method, naming the parameter and the accepted values', async () => {
      await expect(run({ PaymentType: 'CREDIT' })).rejects.toMatchObject({
        code: 'INVALID_PARAMETER',
        field: 'PaymentType',
        message: "PaymentType: 'CREDIT' is not accepted (use one of PDC, CURRENT, ADVANCE)",
      });
      await expect(run({ PaymentMethod: 'BITCOIN' })).rejects.toMatchObject({
        code: 'INVALID_PARAMETER',
        field: 'PaymentMethod',
        message: "PaymentMethod: 'BITCOIN' is not accepted (use one of CHEQUE, DD, NEFT, RTGS, UPI, CASH)",
      });
    });
  });

  describe('getPCNDetails', () => {
    const run = (fields: Record<string, string> = {}) => runOperation(getPCNDetails, engine, fields);

    /** The expected details, worked out from the fixture arrays. */
    function expectedDetails(pdcId: string) {
      const cheque = CHEQUES.find((c) => c.pdc_id === pdcId)!;
      const invoices = PCN_INVOICES.filter((i) => i.pcn_no === cheque.pcn_no);
      const notes = DEBIT_NOTES.filter((n) => n.pcn_no === cheque.pcn_no);
      return {
        ...chequeRow(cheque),
        SalesOfficer: cheque.sales_officer_id,
        InvoiceCount: invoices.length,
        AdjustedAmount: invoices.reduce((s, i) => s + i.adjusted_amount, 0) / 100,
        DebitNoteCount: notes.length,
        DebitNoteAmount: notes.reduce((s, n) => s + n.amount, 0) / 100,
      };
    }

    it('gives the cheque with what its PCN settled, whichever cheque of the PCN is asked', async () => {
      const { data } = await run({ PDCID: 'pdc002' });
      expect(data).toEqual(expectedDetails('PDC002'));
      // By hand: PCN001 adjusted 4000.00 + 2000.00; debit notes 150.00 + 50.00 + 25.50.
      expect(data).toMatchObject({
        PDCID: 'PDC002',
        PCNNO: 'PCN001',
        SalesOfficer: 'SO01',
        InvoiceCount: 2,
        AdjustedAmount: 6000,
        DebitNoteCount: 3,
        DebitNoteAmount: 225.5,
      });
      expect((await run({ PDCID: 'PDC001' })).data).toEqual(expectedDetails('PDC001'));
    });

    it('gives zero counts and amounts for a PCN without invoices or debit notes', async () => {
      expect((await run({ PDCID: 'PDC004' })).data).toEqual(expectedDetails('PDC004'));
      expect((await run({ PDCID: 'PDC005' })).data).toMatchObject({
        InvoiceCount: 0,
        AdjustedAmount: 0,
        DebitNoteCount: 0,
        DebitNoteAmount: 0,
        ChequeNo: 'DD9',
        Amount: 1200.55,
      });
      expect((await run({ PDCID: 'PDC003' })).data).toMatchObject({
        ChequeNo: null,
        ChequeDate: null,
        BankName: null,
        InvoiceCount: 1,
        AdjustedAmount: 8000,
      });
    });

    it('is null for a missing or unknown PDCID', async () => {
      expect(await run()).toEqual({ data: null });
      expect(await run({ PDCID: '  ' })).toEqual({ data: null });
      expect(await run({ PDCID: 'PDC999' })).toEqual({ data: null });
    });
  });

  describe('getPCNInvoices', () => {
    const run = (fields: Record<string, string> = {}) => runOperation(getPCNInvoices, engine, fields);

    it("lists the PCN's invoices by invoice number, any case", async () => {
      const { data } = await run({ PCNNO: 'pcn001' });
      const expected = PCN_INVOICES.filter((i) => i.pcn_no === 'PCN001')
        .sort((a, b) => (a.invoice_no < b.invoice_no ? -1 : 1))
        .map((i) => {
          const invoice = INVOICES.find((v) => v.invoice_no === i.invoice_no)!;
          return {
            InvoiceNo: i.invoice_no,
            InvoiceDate: invoice.invoice_date,
            InvoiceAmount: invoice.amount / 100,
            AdjustedAmount: i.adjusted_amount / 100,
          };
        });
      expect(data).toEqual(expected);
      expect(data).toEqual([
        { InvoiceNo: 'INV001', InvoiceDate: '2026-01-10', InvoiceAmount: 5000, AdjustedAmount: 4000 },
        { InvoiceNo: 'INV002', InvoiceDate: '2026-01-12', InvoiceAmount: 2500, AdjustedAmount: 2000 },
      ]);
    });

    it('is an empty list for a missing, unknown or invoice-less PCN', async () => {
      expect(await run()).toEqual({ data: [] });
      expect(await run({ PCNNO: 'PCN999' })).toEqual({ data: [] });
      expect(await run({ PCNNO: 'PCN003' })).toEqual({ data: [] });
    });
  });

  describe('getPCNDebitNotes', () => {
    const run = (fields: Record<string, string> = {}) => runOperation(getPCNDebitNotes, engine, fields);

    it("lists the PCN's debit notes by date, then number, any case", async () => {
      const { data } = await run({ PCNNO: 'Pcn001' });
      const expected = DEBIT_NOTES.filter((n) => n.pcn_no === 'PCN001')
        .sort((a, b) =>
          a.note_date !== b.note_date
            ? a.note_date < b.note_date
              ? -1
              : 1
            : a.debit_note_no < b.debit_note_no
              ? -1
              : 1,
        )
        .map((n) => ({
          DebitNoteNo: n.debit_note_no,
          DebitNoteDate: n.note_date,
          Amount: n.amount / 100,
          Reason: n.reason,
        }));
      expect(data).toEqual(expected);
      expect((data as { DebitNoteNo: string }[]).map((n) => n.DebitNoteNo)).toEqual(['DN003', 'DN001', 'DN002']);
    });

    it('is an empty list for a missing, unknown or note-less PCN', async () => {
      expect(await run()).toEqual({ data: [] });
      expect(await run({ PCNNO: 'PCN999' })).toEqual({ data: [] });
      expect(await run({ PCNNO: 'PCN002' })).toEqual({ data: [] });
    });
  });
});

describe.each(ENGINES)('PCN lookups on an empty database: %s', (kind) => {
  let engine: Engine;
  suiteEngine(kind, (opened) => (engine = opened));

  it('answers every operation with nothing', async () => {
    expect(await runOperation(getPCNList, engine)).toEqual({ data: [] });
    expect(
      await runOperation(getPCNList, engine, {
        SalesOfficer: 'SO01',
        Customer: 'C001',
        PaymentType: 'PDC',
        PaymentMethod: 'CHEQUE',
      }),
    ).toEqual({ data: [] });
    expect(await runOperation(getPCNDetails, engine)).toEqual({ data: null });
    expect(await runOperation(getPCNDetails, engine, { PDCID: 'PDC001' })).toEqual({ data: null });
    expect(await runOperation(getPCNInvoices, engine)).toEqual({ data: [] });
    expect(await runOperation(getPCNInvoices, engine, { PCNNO: 'PCN001' })).toEqual({ data: [] });
    expect(await runOperation(getPCNDebitNotes, engine)).toEqual({ data: [] });
    expect(await runOperation(getPCNDebitNotes, engine, { PCNNO: 'PCN001' })).toEqual({ data: [] });
  });
});

describe.each(ENGINES)('PCN lookups with an authenticated user (principal): %s', (kind) => {
  let engine: Engine;
  suiteEngine(
    kind,
    (opened) => (engine = opened),
    () => insertCheques(engine),
  );

  const as = (id: string) => ({ principal: principal(id) });
  /** The cheque's customer is owned by an officer the user sees. */
  const customerSeenBy = (id: string) => (c: Database['pcn']) =>
    seesOfficer(id, CUSTOMERS.find((x) => x.code === c.customer_code)!.sales_officer_id);
  const pcnSeenBy = (id: string, pcnNo: string) => CHEQUES.some((c) => c.pcn_no === pcnNo && customerSeenBy(id)(c));
  const invoicesOf = (pcnNo: string) =>
    PCN_INVOICES.filter((i) => i.pcn_no === pcnNo)
      .map((i) => i.invoice_no)
      .sort();
  const notesOf = (pcnNo: string) => DEBIT_NOTES.filter((n) => n.pcn_no === pcnNo).map((n) => n.debit_note_no);

  describe('getPCNList', () => {
    const run = (id: string, fields: Record<string, string> = {}) => runOperation(getPCNList, engine, fields, as(id));

    it('lists an officer the cheques of their own customers, a manager their tree, the admin all', async () => {
      expect(ids((await run('SO01')).data)).toEqual(['PDC005', 'PDC002', 'PDC001']);
      expect((await run('SO01')).data).toEqual(expectedList(customerSeenBy('SO01')));
      expect((await run('AM01')).data).toEqual(expectedList(customerSeenBy('AM01')));
      expect((await run('ZM02', { PaymentType: 'current' })).data).toEqual(
        expectedList((c) => customerSeenBy('ZM02')(c) && c.payment_type === 'CURRENT'),
      );
      expect((await run('ADM001')).data).toEqual(expectedList(() => true));
    });

    it('narrows with an officer or customer within the scope, and finds nothing for one that does not exist', async () => {
      expect((await run('AM01', { SalesOfficer: 'so02' })).data).toEqual(
        expectedList((c) => c.sales_officer_id === 'SO02'),
      );
      expect((await run('AM01', { Customer: 'C002' })).data).toEqual(expectedList((c) => c.customer_code === 'C002'));
      expect((await run('AM01', { SalesOfficer: 'SO99' })).data).toEqual([]);
      expect((await run('SO01', { Customer: 'C999', SalesOfficer: 'so01' })).data).toEqual([]);
    });

    it('refuses an officer or customer outside the scope as FORBIDDEN naming the parameter', async () => {
      await expect(run('SO01', { SalesOfficer: 'SO02' })).rejects.toMatchObject({
        code: 'FORBIDDEN',
        field: 'SalesOfficer',
      });
      await expect(run('SO01', { Customer: 'c003' })).rejects.toMatchObject({ code: 'FORBIDDEN', field: 'Customer' });
      await expect(run('AM02', { Customer: 'C001' })).rejects.toMatchObject({ code: 'FORBIDDEN', field: 'Customer' });
    });
  });

  describe('getPCNDetails, getPCNInvoices, getPCNDebitNotes', () => {
    const details = async (id: string, pdcId: string) =>
      (await runOperation(getPCNDetails, engine, { PDCID: pdcId }, as(id))).data as { PDCID: string } | null;
    const invoices = async (id: string, pcnNo: string) =>
      ((await runOperation(getPCNInvoices, engine, { PCNNO: pcnNo }, as(id))).data as { InvoiceNo: string }[]).map(
        (r) => r.InvoiceNo,
      );
    const notes = async (id: string, pcnNo: string) =>
      ((await runOperation(getPCNDebitNotes, engine, { PCNNO: pcnNo }, as(id))).data as { DebitNoteNo: string }[]).map(
        (r) => r.DebitNoteNo,
      );

    it.each([
      ['SO01', 'PDC001'],
      ['SO01', 'PDC003'],
      ['SO02', 'PDC001'],
      ['SO02', 'PDC004'],
      ['AM01', 'PDC002'],
      ['AM01', 'PDC003'],
      ['ZM02', 'PDC003'],
      ['ADM001', 'PDC004'],
    ])(
      '%s asking for %s: the cheque when its customer is within the scope, else null as not found',
      async (id, pdcId) => {
        const cheque = CHEQUES.find((c) => c.pdc_id === pdcId)!;
        const seen = customerSeenBy(id)(cheque);
        const data = await details(id, pdcId.toLowerCase());
        if (seen) expect(data).toMatchObject({ ...chequeRow(cheque), SalesOfficer: cheque.sales_officer_id });
        else expect(data).toBeNull();
      },
    );

    it.each([
      ['SO01', 'PCN001'],
      ['SO02', 'PCN001'],
      ['SO03', 'PCN002'],
      ['AM01', 'PCN002'],
      ['AM01', 'PCN003'],
      ['ZM02', 'PCN003'],
      ['ADM001', 'PCN002'],
      ['ADM001', 'PCN003'],
    ])('%s asking for %s: its invoices and debit notes when within the scope, else empty', async (id, pcnNo) => {
      const seen = pcnSeenBy(id, pcnNo);
      expect(await invoices(id, pcnNo)).toEqual(seen ? invoicesOf(pcnNo) : []);
      const wantNotes = seen
        ? DEBIT_NOTES.filter((n) => n.pcn_no === pcnNo)
            .sort((a, b) =>
              a.note_date !== b.note_date
                ? a.note_date < b.note_date
                  ? -1
                  : 1
                : a.debit_note_no < b.debit_note_no
                  ? -1
                  : 1,
            )
            .map((n) => n.debit_note_no)
        : [];
      expect(await notes(id, pcnNo)).toEqual(wantNotes);
    });

    it('keeps the cases above meaningful: some PCNs are seen and hold lines, some are hidden', async () => {
      expect(pcnSeenBy('SO01', 'PCN001') && invoicesOf('PCN001').length === 2 && notesOf('PCN001').length === 3).toBe(
        true,
      );
      expect(pcnSeenBy('SO02', 'PCN001') || pcnSeenBy('AM01', 'PCN002')).toBe(false);
      expect(await invoices('SO02', 'PCN001')).toEqual([]);
      expect(await notes('SO01', 'PCN001')).toEqual(['DN003', 'DN001', 'DN002']);
    });
  });
});
