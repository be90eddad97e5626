import { AppError } from '../errors';
import { codeRange, dateRange, direction, list, month, oneOf, parseDate, positiveInteger, sort, year } from './parse';

function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('dates', () => {
  it.each([
    ['2026-03-04', '2026-03-04'],
    ['2026-3-4', '2026-03-04'],
    ['2026-03-04T23:59:59', '2026-03-04'],
    ['2026-03-04 08:15', '2026-03-04'],
    ['2026-03-04T08:15:00.000Z', '2026-03-04'],
    ['04/03/2026', '2026-03-04'],
    ['4/3/2026', '2026-03-04'],
    ['04-03-2026', '2026-03-04'],
    ['04.03.2026', '2026-03-04'],
    ['04-Mar-2026', '2026-03-04'],
    ['04 mar 2026', '2026-03-04'],
    ['4 March 2026', '2026-03-04'],
    ['29/02/2024', '2024-02-29'],
  ])('reads %s as %s (day first)', (input, expected) => {
    expect(parseDate(input, 'FromDate')).toBe(expected);
  });

  it('reads slash dates month first when the setting says MDY, and only slash dates', () => {
    expect(parseDate('04/03/2026', 'FromDate', 'MDY')).toBe('2026-04-03');
    expect(parseDate('04-03-2026', 'FromDate', 'MDY')).toBe('2026-03-04');
    expect(parseDate('2026-04-03', 'FromDate', 'MDY')).toBe('2026-04-03');
  });

  it.each(['31/02/2026', '29/02/2025', '2026-13-01', '00/01/2026', '32-01-2026', '2026-02-30', 'yesterday', '04-Foo-2026', '1/1/26', ''])(
    'refuses %p with the parameter name and the accepted formats',
    (input) => {
      const err = failure(() => parseDate(input, 'ToDate'));
      expect(err.code).toBe('INVALID_PARAMETER');
      expect(err.field).toBe('ToDate');
      expect(err.message).toMatch(/^ToDate: .* is not a date \(use yyyy-MM-dd, dd\/MM\/yyyy/);
    },
  );

  it('applies the range rule: From only is that day, both inclusive, To only is up to', () => {
    expect(dateRange({ FromDate: '01/04/2026' }, 'FromDate', 'ToDate', 'DMY')).toEqual({ from: '2026-04-01', to: '2026-04-01' });
    expect(dateRange({ FromDate: '01/04/2026', ToDate: '2026-04-30' }, 'FromDate', 'ToDate', 'DMY')).toEqual({ from: '2026-04-01', to: '2026-04-30' });
    expect(dateRange({ ToDate: '30/04/2026' }, 'FromDate', 'ToDate', 'DMY')).toEqual({ from: undefined, to: '2026-04-30' });
    expect(dateRange({ FromDate: ' ', ToDate: '' }, 'FromDate', 'ToDate', 'DMY')).toEqual({ from: undefined, to: undefined });
    const err = failure(() => dateRange({ FromDate: '02/04/2026', ToDate: '01/04/2026' }, 'FromDate', 'ToDate', 'DMY'));
    expect(err.field).toBe('FromDate');
  });
});

describe('codes, months, years, lists', () => {
  it('compares code ranges without regard to case', () => {
    expect(codeRange({ FromCustomer: 'c001', ToCustomer: 'C010' }, 'FromCustomer', 'ToCustomer')).toEqual({ from: 'C001', to: 'C010' });
    expect(codeRange({ FromPCat: 'cat02' }, 'FromPCat', 'ToPCat')).toEqual({ from: 'CAT02', to: 'CAT02' });
    expect(failure(() => codeRange({ FromPCat: 'B', ToPCat: 'a' }, 'FromPCat', 'ToPCat')).field).toBe('FromPCat');
  });

  it('reads months in every documented form and defaults to the clock', () => {
    const now = new Date('2026-07-09T00:00:00Z');
    for (const [input, expected] of [['1', 1], ['01', 1], ['12', 12], ['Jan', 1], ['dec', 12], ['September', 9], ['', 7]] as const) {
      expect(month({ Month: input }, 'Month', now)).toBe(expected);
    }
    expect(month({}, 'Month', now)).toBe(7);
    for (const bad of ['0', '13', 'Sept', 'Janu', '1.5']) {
      expect(failure(() => month({ Month: bad }, 'Month', now)).field).toBe('Month');
    }
  });

  it('reads four-digit years and defaults to the clock', () => {
    const now = new Date('2026-07-09T00:00:00Z');
    expect(year({ Year: '2025' }, 'Year', now)).toBe(2025);
    expect(year({}, 'Year', now)).toBe(2026);
    for (const bad of ['26', '20266', 'MMXXVI', '0999']) {
      expect(failure(() => year({ Year: bad }, 'Year', now)).message).toMatch(/^Year: /);
    }
  });

  it('splits lists, trims, drops empties and treats ALL as no filter', () => {
    expect(list({ Zones: ' n, s ,,N ' }, 'Zones')).toEqual(['N', 'S']);
    expect(list({ Zones: 'N,all' }, 'Zones')).toBeUndefined();
    expect(list({ Zones: ' , ' }, 'Zones')).toBeUndefined();
    expect(list({}, 'Zones')).toBeUndefined();
  });
});

describe('sorting and enumerations', () => {
  const fields = ['CustomerCode', 'Value'] as const;

  it('accepts a result field in any case and both direction spellings', () => {
    expect(sort({ SortBy: 'value', SortDirection: 'Descending' }, fields, 'CustomerCode')).toEqual({ field: 'Value', direction: 'desc' });
    expect(sort({}, fields, 'CustomerCode')).toEqual({ field: 'CustomerCode', direction: 'asc' });
    expect(direction({ SortDirection: 'asc' })).toBe('asc');
    expect(direction({ SortDirection: 'DESC' })).toBe('desc');
  });

  it('refuses an unknown sort field or direction, naming the parameter', () => {
    const bad = failure(() => sort({ SortBy: 'Value; drop table x' }, fields, 'CustomerCode'));
    expect(bad.field).toBe('SortBy');
    expect(bad.message).toContain('CustomerCode, Value');
    expect(failure(() => direction({ SortDirection: 'up' })).field).toBe('SortDirection');
  });

  it('maps enumerations with aliases and refuses anything else', () => {
    const actions = { APPROVE: 'APPROVE', A: 'APPROVE', REJECT: 'REJECT', R: 'REJECT' } as const;
    expect(oneOf({ Action: 'a' }, 'Action', actions)).toBe('APPROVE');
    expect(oneOf({}, 'Action', actions)).toBeUndefined();
    expect(failure(() => oneOf({ Action: 'maybe' }, 'Action', actions)).message).toBe("Action: 'maybe' is not accepted (use one of APPROVE, REJECT)");
  });

  it('bounds whole numbers', () => {
    expect(positiveInteger({ PageSize: '25' }, 'PageSize', 500, 5000)).toBe(25);
    expect(positiveInteger({}, 'PageSize', 500, 5000)).toBe(500);
    for (const bad of ['0', '-1', '5001', '2.5', 'ten']) {
      expect(failure(() => positiveInteger({ PageSize: bad }, 'PageSize', 500, 5000)).field).toBe('PageSize');
    }
  });
});
