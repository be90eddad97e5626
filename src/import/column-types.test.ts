/** CSV text -> stored values (docs/import.md, "Values"), the cells of the export, and the quoting of the rejects file. */
import { ValueError, escapeText, parseValue, unescapeText, type ColumnType } from './column-types';
import { field } from './export';
import { csvField } from './rejects-file';

const value = (type: ColumnType, text: string, order: 'DMY' | 'MDY' = 'DMY') => parseValue(type, text, order);
const reason = (type: ColumnType, text: string) => {
  try {
    value(type, text);
  } catch (err) {
    if (err instanceof ValueError) return err.message;
    throw err;
  }
  throw new Error(`'${text}' was accepted`);
};

describe('import column values', () => {
  const signed: ColumnType = { kind: 'money', signed: true };
  const unsigned: ColumnType = { kind: 'money', signed: false };

  it('reads money as integer minor units without rounding', () => {
    expect(
      ['0', '7', '7.5', '7.50', '1234.05', '-120.75', '+3', '0.29', '99999999999.99'].map((t) => value(signed, t)),
    ).toEqual([0, 700, 750, 750, 123405, -12075, 300, 29, 9999999999999]);
    expect(value(unsigned, '-0.00')).toBe(0);
    for (const bad of ['1.234', '1,234.00', '₹5', '.5', '5.', '1e3', 'abc', '100000000000000']) {
      expect(reason(signed, bad)).toMatch(/is not an amount/);
    }
    expect(reason(unsigned, '-1')).toBe("'-1' is negative; this amount cannot be");
  });

  it('reads dates in the accepted forms and the DATE_ORDER setting', () => {
    const date: ColumnType = { kind: 'date' };
    expect(
      ['2026-03-04', '04/03/2026', '04-03-2026', '4.3.2026', '04-Mar-2026', '4 March 2026'].map((t) => value(date, t)),
    ).toEqual(Array(6).fill('2026-03-04'));
    expect(value(date, '03/04/2026', 'MDY')).toBe('2026-03-04');
    expect(reason(date, '31/02/2026')).toMatch(/^'31\/02\/2026' is not a date \(use yyyy-MM-dd, dd\/MM\/yyyy/);
    expect(reason(date, '2026-13-01')).toMatch(/is not a date/);
  });

  it('reads ISO timestamps as UTC instants, a missing zone meaning UTC', () => {
    const ts: ColumnType = { kind: 'timestamp' };
    expect(value(ts, '2026-04-05T10:00:00+05:30')).toBe('2026-04-05T04:30:00.000Z');
    expect(value(ts, '2026-04-05 10:00')).toBe('2026-04-05T10:00:00.000Z');
    expect(value(ts, '2026-04-05T10:00:00.123z')).toBe('2026-04-05T10:00:00.123Z');
    for (const bad of ['2026-02-30T10:00:00Z', '2026-04-05T25:00:00Z', '2026-04-05', '05/04/2026 10:00']) {
      expect(reason(ts, bad)).toMatch(/is not a timestamp/);
    }
  });

  it('reads integers, enumerations, flags and bounded text', () => {
    expect(value({ kind: 'integer', min: 1, max: 10 }, '+7')).toBe(7);
    expect(reason({ kind: 'integer', min: 1, max: 10 }, '0')).toBe('0 is out of range (1..10)');
    expect(reason({ kind: 'integer', min: 1, max: 10 }, '1.5')).toBe("'1.5' is not a whole number");
    expect(value({ kind: 'enum', values: ['OPEN', 'CLOSED'] }, 'closed')).toBe('CLOSED');
    expect(reason({ kind: 'enum', values: ['OPEN', 'CLOSED'] }, 'SHUT')).toBe("'SHUT' is not one of OPEN, CLOSED");
    expect(['1', 'true', 'Y', 'yes', '0', 'FALSE', 'n', 'No'].map((t) => value({ kind: 'flag' }, t))).toEqual([
      1, 1, 1, 1, 0, 0, 0, 0,
    ]);
    expect(reason({ kind: 'flag' }, '2')).toMatch(/is not a flag/);
    expect(value({ kind: 'text', max: 5, lowerCase: true }, 'AbC')).toBe('abc');
    expect(reason({ kind: 'text', max: 5 }, 'abcdef')).toBe('is 6 characters long; at most 5 are accepted');
  });

  it('writes a text a spreadsheet would run as a formula after an apostrophe, and reads it back as it was', () => {
    const text: ColumnType = { kind: 'text', max: 100 };
    expect(
      ['=1+1', '+1', '-1', '@A1', '\t=1', "'x", "''x", "'", 'plain', "it's", 'a=b'].map((t) => field(text, t)),
    ).toEqual(["'=1+1", "'+1", "'-1", "'@A1", "'\t=1", "''x", "'''x", "''", 'plain', "it's", 'a=b']);
    expect(field(text, '\r=1')).toBe(`"'\r=1"`);
    for (const t of ['=1+1', '-1', '\t=1', '\r=1', "'x", "''x", "'", 'plain', "it's"])
      expect(unescapeText(escapeText(t))).toBe(t);
    // Numbers are not text: a negative one is written as it is.
    expect(field({ kind: 'money', signed: true }, -500)).toBe('-5.00');
    expect(field({ kind: 'integer', min: -10, max: 10 }, -5)).toBe('-5');
  });

  it('quotes a rejects-file field only when RFC 4180 needs it', () => {
    expect(csvField('plain text')).toBe('plain text');
    expect(csvField("'X' is not one of OPEN, CLOSED")).toBe(`"'X' is not one of OPEN, CLOSED"`);
    expect(csvField('say "hi"\nthere')).toBe('"say ""hi""\nthere"');
  });
});
