import { AppError } from '../errors';
import {
  codeRange,
  dateRange,
  direction,
  list,
  month,
  oneOf,
  parseDate,
  positiveInteger,
  sort,
  year,
  type Fields,
} from './parse';

/** The fields of a request that declares the names N and sent only some of them (the rest read as undefined). */
const sent =
  <N extends string>() =>
  (values: Partial<Record<N, string>>): Fields<N> =>
    values as Fields<N>;
const dates = sent<'FromDate' | 'ToDate'>();
const customers = sent<'FromCustomer' | 'ToCustomer'>();
const categories = sent<'FromPCat' | 'ToPCat'>();
const months = sent<'Month'>();
const years = sent<'Year'>();
const zones = sent<'Zones'>();
const sorting = sent<'SortBy' | 'SortDirection'>();
const actionField = sent<'Action'>();
const pageSize = sent<'PageSize'>();

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

  it.each([
    '31/02/2026',
    '29/02/2025',
    '2026-13-01',
    '00/01/2026',
    '32-01-2026',
    '2026-02-30',
    'yesterday',
    '04-Foo-2026',
    '1/1/26',
    '',
  ])('refuses %p with the parameter name and the accepted formats', (input) => {
    const err = failure(() => parseDate(input, 'ToDate'));
    expect(err.code).toBe('INVALID_PARAMETER');
    expect(err.field).toBe('ToDate');
    expect(err.message).toMatch(/^ToDate: .* is not a date \(use yyyy-MM-dd, dd\/MM\/yyyy/);
  });

  it('applies the range rule: From only is that day, both inclusive, To only is up to', () => {
    expect(dateRange(dates({ FromDate: '01/04/2026' }), 'FromDate', 'ToDate', 'DMY')).toEqual({
      from: '2026-04-01',
      to: '2026-04-01',
    });
    expect(dateRange(dates({ FromDate: '01/04/2026', ToDate: '2026-04-30' }), 'FromDate', 'ToDate', 'DMY')).toEqual({
      from: '2026-04-01',
      to: '2026-04-30',
    });
    expect(dateRange(dates({ ToDate: '30/04/2026' }), 'FromDate', 'ToDate', 'DMY')).toEqual({
      from: undefined,
      to: '2026-04-30',
    });
    expect(dateRange(dates({ FromDate: ' ', ToDate: '' }), 'FromDate', 'ToDate', 'DMY')).toEqual({
      from: undefined,
      to: undefined,
    });
    const err = failure(() =>
      dateRange(dates({ FromDate: '02/04/2026', ToDate: '01/04/2026' }), 'FromDate', 'ToDate', 'DMY'),
    );
    expect(err.field).toBe('FromDate');
  });
});

describe('codes, months, years, lists', () => {
  it('compares code ranges without regard to case', () => {
    expect(codeRange(customers({ FromCustomer: 'c001', ToCustomer: 'C010' }), 'FromCustomer', 'ToCustomer')).toEqual({
      from: 'C001',
      to: 'C010',
    });
    expect(codeRange(categories({ FromPCat: 'cat02' }), 'FromPCat', 'ToPCat')).toEqual({ from: 'CAT02', to: 'CAT02' });
    expect(failure(() => codeRange(categories({ FromPCat: 'B', ToPCat: 'a' }), 'FromPCat', 'ToPCat')).field).toBe(
      'FromPCat',
    );
  });

  it('reads months in every documented form and defaults to the clock', () => {
    const now = new Date('2026-07-09T00:00:00Z');
    for (const [input, expected] of [
      ['1', 1],
      ['01', 1],
      ['12', 12],
      ['Jan', 1],
      ['dec', 12],
      ['September', 9],
      ['', 7],
    ] as const) {
      expect(month(months({ Month: input }), 'Month', now)).toBe(expected);
    }
    expect(month(months({}), 'Month', now)).toBe(7);
    for (const bad of ['0', '13', 'Sept', 'Janu', '1.5']) {
      expect(failure(() => month(months({ Month: bad }), 'Month', now)).field).toBe('Month');
    }
  });

  it('reads four-digit years and defaults to the clock', () => {
    const now = new Date('2026-07-09T00:00:00Z');
    expect(year(years({ Year: '2025' }), 'Year', now)).toBe(2025);
    expect(year(years({}), 'Year', now)).toBe(2026);
    for (const bad of ['26', '20266', 'MMXXVI', '0999']) {
      expect(failure(() => year(years({ Year: bad }), 'Year', now)).message).toMatch(/^Year: /);
    }
  });

  it('splits lists, trims, drops empties and treats ALL as no filter', () => {
    expect(list(zones({ Zones: ' n, s ,,N ' }), 'Zones')).toEqual(['N', 'S']);
    expect(list(zones({ Zones: 'N,all' }), 'Zones')).toBeUndefined();
    expect(list(zones({ Zones: ' , ' }), 'Zones')).toBeUndefined();
    expect(list(zones({}), 'Zones')).toBeUndefined();
  });
});

describe('sorting and enumerations', () => {
  const fields = ['CustomerCode', 'Value'] as const;

  it('accepts a result field in any case and both direction spellings', () => {
    expect(
      sort(sorting({ SortBy: 'value', SortDirection: 'Descending' }), { fields, fallback: 'CustomerCode' }),
    ).toEqual({ field: 'Value', direction: 'desc' });
    expect(sort(sorting({}), { fields, fallback: 'CustomerCode' })).toEqual({
      field: 'CustomerCode',
      direction: 'asc',
    });
    expect(direction(sorting({ SortDirection: 'asc' }))).toBe('asc');
    expect(direction(sorting({ SortDirection: 'DESC' }))).toBe('desc');
  });

  it('refuses an unknown sort field or direction, naming the parameter', () => {
    const bad = failure(() => sort(sorting({ SortBy: 'Value; drop table x' }), { fields, fallback: 'CustomerCode' }));
    expect(bad.field).toBe('SortBy');
    expect(bad.message).toContain('CustomerCode, Value');
    expect(failure(() => direction(sorting({ SortDirection: 'up' }))).field).toBe('SortDirection');
  });

  it('maps enumerations with aliases and refuses anything else', () => {
    const actions = { APPROVE: 'APPROVE', A: 'APPROVE', REJECT: 'REJECT', R: 'REJECT' } as const;
    expect(oneOf(actionField({ Action: 'a' }), 'Action', actions)).toBe('APPROVE');
    expect(oneOf(actionField({}), 'Action', actions)).toBeUndefined();
    expect(failure(() => oneOf(actionField({ Action: 'maybe' }), 'Action', actions)).message).toBe(
      "Action: 'maybe' is not accepted (use one of APPROVE, REJECT)",
    );
  });

  it('bounds whole numbers', () => {
    expect(positiveInteger(pageSize({ PageSize: '25' }), 'PageSize', 500, 5000)).toBe(25);
    expect(positiveInteger(pageSize({}), 'PageSize', 500, 5000)).toBe(500);
    for (const bad of ['0', '-1', '5001', '2.5', 'ten']) {
      expect(failure(() => positiveInteger(pageSize({ PageSize: bad }), 'PageSize', 500, 5000)).field).toBe('PageSize');
    }
  });
});
