/**
 * The result declarations' check (result-check.ts): what it accepts and what it names as a difference.
 * That every operation's real results pass it is asserted by the operation tests themselves
 * (operation.ts runs the check on every result).
 */
import { resultMismatches, valueMismatches } from './result-check';
import { field, nullable, record, recordType, rows, type RecordType } from '../../src/operations/results';

const LINE = recordType('Line', {
  No: field.string,
  Day: field.date,
  At: nullable(field.dateTime),
  Units: field.integer,
  Amount: field.money,
  Share: field.decimal,
  Open: field.boolean,
});
const line = { No: 'A1', Day: '2026-01-31', At: null, Units: 3, Amount: 12.5, Share: 33.333, Open: true };

describe('valueMismatches', () => {
  it('accepts values of the declared kinds', () => {
    expect(valueMismatches(line, { record: LINE }, 'Data')).toEqual([]);
    expect(
      valueMismatches({ ...line, At: '2026-01-31T10:00:00.000Z', Amount: -0.07 }, { record: LINE }, 'Data'),
    ).toEqual([]);
  });

  it.each([
    ['No', 7, 'Data.No: 7 is not a valid string'],
    ['Day', '31/01/2026', 'Data.Day: "31/01/2026" is not a valid date'],
    ['At', '2026-01-31 10:00', 'Data.At: "2026-01-31 10:00" is not a valid dateTime'],
    ['Units', 2.5, 'Data.Units: 2.5 is not a valid integer'],
    ['Amount', 0.125, 'Data.Amount: 0.125 is not a valid money'],
    ['Share', '33', 'Data.Share: "33" is not a valid decimal'],
    ['Open', 1, 'Data.Open: 1 is not a valid boolean'],
    ['Day', null, 'Data.Day: null, declared not nullable'],
  ])('names a wrong %s', (name, value, problem) => {
    expect(valueMismatches({ ...line, [name]: value }, { record: LINE }, 'Data')).toEqual([problem]);
  });

  it('wants exactly the declared fields in the declared order', () => {
    const { Open, ...withoutOpen } = line;
    expect(valueMismatches(withoutOpen, { record: LINE }, 'Data')).toEqual([
      `Data: fields No, Day, At, Units, Amount, Share differ from Line's No, Day, At, Units, Amount, Share, Open`,
    ]);
    expect(valueMismatches({ ...line, Extra: 1 }, { record: LINE }, 'Data')).toHaveLength(1);
    expect(valueMismatches({ Open, ...withoutOpen }, { record: LINE }, 'Data')).toHaveLength(1);
  });

  it('checks lists and nested records item by item', () => {
    const page: RecordType = recordType('Page', { Lines: { list: LINE }, Last: { record: LINE } });
    expect(valueMismatches({ Lines: [line, { ...line, Units: '3' }], Last: line }, { record: page }, 'Data')).toEqual([
      'Data.Lines[1].Units: "3" is not a valid integer',
    ]);
    expect(valueMismatches({ Lines: {}, Last: line }, { record: page }, 'Data')).toEqual([
      'Data.Lines: {} is not a list of Line',
    ]);
  });
});

describe('resultMismatches', () => {
  const TOTALS = recordType('Totals', { Amount: field.money });

  it('checks rows, Totals and NextPageToken against the declaration', () => {
    expect(resultMismatches({ data: [line], totals: { Amount: 12.5 } }, rows(LINE, { totals: TOTALS }))).toEqual([]);
    expect(resultMismatches({ data: [line] }, rows(LINE, { totals: TOTALS }))).toEqual([
      'Totals: undefined is not a Totals',
    ]);
    expect(resultMismatches({ data: [line], totals: { Amount: 1 } }, rows(LINE))).toEqual([
      'Totals: present, none declared',
    ]);
    expect(resultMismatches({ data: [], nextPageToken: null }, rows(LINE))).toEqual([
      'NextPageToken: present, the operation is not pageable',
    ]);
    expect(resultMismatches({ data: [], nextPageToken: 'abc' }, rows(LINE, { pageable: true }))).toEqual([]);
  });

  it('lets Data be null only where declared, or for a write called with no input', () => {
    expect(resultMismatches({ data: null }, record(LINE, { nullable: true }))).toEqual([]);
    expect(resultMismatches({ data: null }, record(LINE))).toEqual(['Data: null, declared not nullable']);
    expect(resultMismatches({ data: null }, rows(LINE))).toEqual(['Data: null, declared not nullable']);
    expect(resultMismatches({ data: null }, rows(LINE), true)).toEqual([]);
  });
});
