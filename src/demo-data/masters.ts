/**
 * The company's master data: regions, divisions, products, the reporting tree of officers and the
 * customers; customers and officers below the zonal managers grow with the scale.
 */
import {
  AREA_ZONE_CYCLE,
  BANKS,
  CATEGORIES,
  DEALER_PREFIXES,
  DEALER_SUFFIXES,
  DEALER_TRADES,
  FIRST_NAMES,
  LAST_NAMES,
  PROFIT_CENTERS,
  STATES,
  ZONAL_REGIONS,
  ZONES,
  type StateSpec,
} from './catalog';
import type { Officer } from './model';
import type { Random } from './random';

export type Product = ReturnType<typeof buildProducts>[number];
export type Customer = ReturnType<typeof buildCustomer>;

/** The company, with its products of each profit center and the customers of each officer, in code order. */
export type Company = ReturnType<typeof buildCompany>;

/** Scale 1: 10 area managers, 45 sales officers, 3,000 customers; every zone keeps an area manager. */
function headcount(scale: number) {
  const areaManagers = Math.max(AREA_ZONE_CYCLE.length - 4, Math.round(10 * scale));
  const salesOfficers = Math.max(areaManagers, Math.round(45 * scale));
  const customers = Math.max(salesOfficers * 5, Math.round(3000 * scale));
  return { areaManagers, salesOfficers, customers };
}

export function buildCompany(random: Random, scale: number) {
  const products = buildProducts();
  const productsByProfitCenter = new Map<string, Product[]>();
  for (const p of products) {
    const list = productsByProfitCenter.get(p.profitCenter) ?? [];
    list.push(p);
    productsByProfitCenter.set(p.profitCenter, list);
  }
  const count = headcount(scale);
  const officers = buildOfficers(random, count);
  const salesOfficers = officers.filter((o) => o.role === 'SO');
  const customers = buildCustomers(random, salesOfficers, count.customers);
  const customersByOfficer = new Map<string, Customer[]>(salesOfficers.map((o) => [o.id, []]));
  for (const c of customers) customersByOfficer.get(c.officer.id)!.push(c);
  return { products, productsByProfitCenter, officers, customers, customersByOfficer };
}

/** Unit prices step evenly from the cheapest to the dearest model, rounded to ten rupees. */
function buildProducts() {
  return CATEGORIES.flatMap((cat) =>
    cat.models.map((model, i) => {
      const rupees = cat.priceFrom + ((cat.priceTo - cat.priceFrom) * i) / (cat.models.length - 1);
      return {
        code: `${cat.code}${String(i + 1).padStart(3, '0')}`,
        name: `${cat.stem} ${model}`,
        categoryCode: cat.code,
        profitCenter: cat.profitCenter,
        unitPrice: Math.round(rupees / 10) * 10 * 100,
        quantity: cat.quantity,
        packOf: cat.packOf,
      };
    }),
  );
}

function buildOfficers(random: Random, count: ReturnType<typeof headcount>): Officer[] {
  const usernames = new Set<string>();
  const person = (id: string, role: Officer['role'], manager: Officer | null, zoneCode: string | null): Officer => {
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    return {
      id,
      username: uniqueUsername(usernames, `${first}.${last}`.toLowerCase()),
      name: `${first} ${last}`,
      role,
      manager,
      zoneCode,
    };
  };
  usernames.add('admin');
  const admin: Officer = {
    id: 'ADM001',
    username: 'admin',
    name: 'Head Office Administrator',
    role: 'ADMIN',
    manager: null,
    zoneCode: null,
  };
  const zonal = ZONAL_REGIONS.map((zones, i) => person(`ZM${pad(i + 1, 4)}`, 'ZM', admin, zones[0]));
  const zonalOf = (zone: string) => zonal[ZONAL_REGIONS.findIndex((zones) => zones.includes(zone))];
  const areas: Officer[] = [];
  for (let i = 0; i < count.areaManagers; i++) {
    const zone = AREA_ZONE_CYCLE[i % AREA_ZONE_CYCLE.length];
    areas.push(person(`AM${pad(i + 1, 4)}`, 'AM', zonalOf(zone), zone));
  }
  const sales: Officer[] = [];
  for (let i = 0; i < count.salesOfficers; i++) {
    const area = areas[i % areas.length];
    sales.push(person(`SO${pad(i + 1, 4)}`, 'SO', area, area.zoneCode));
  }
  return [admin, ...zonal, ...areas, ...sales];
}

function uniqueUsername(taken: Set<string>, wanted: string): string {
  let name = wanted;
  for (let n = 2; taken.has(name); n++) name = `${wanted}${n}`;
  taken.add(name);
  return name;
}

function buildCustomers(random: Random, salesOfficers: Officer[], count: number): Customer[] {
  const statesByZone = new Map<string, StateSpec[]>();
  for (const s of STATES) statesByZone.set(s.zone, [...(statesByZone.get(s.zone) ?? []), s]);
  // Officers carry different loads; the first customers go round so everyone has some.
  const loads = salesOfficers.map(() => 0.6 + random.next() * 0.8);
  const customers: Customer[] = [];
  for (let i = 0; i < count; i++) {
    const officer = i < salesOfficers.length ? salesOfficers[i] : random.weighted(salesOfficers, loads);
    const zoneStates = statesByZone.get(officer.zoneCode!)!;
    const state = random.weighted(
      zoneStates,
      zoneStates.map((s) => s.weight),
    );
    customers.push(buildCustomer(random, `C${pad(i + 1, 6)}`, officer, state));
  }
  return customers;
}

function buildCustomer(random: Random, code: string, officer: Officer, state: StateSpec) {
  const size = random.next();
  const [weight, limitFrom, limitTo, discountFrom, discountTo] =
    size < 0.1 ? [3, 20, 50, 800, 1200] : size < 0.4 ? [1.3, 5, 20, 400, 800] : [0.55, 1, 6, 0, 400];
  // Credit limits in lakhs of rupees, rounded to half a lakh.
  const creditLimit = (Math.round((limitFrom + random.next() * (limitTo - limitFrom)) * 2) / 2) * 100_000 * 100;
  const pcCount = random.weighted([1, 2, 3], [4, 4, 2]);
  const profitCenters = random
    .sample(
      PROFIT_CENTERS.map((p) => p.code),
      pcCount,
    )
    .sort();
  const trade = `${random.pick(DEALER_PREFIXES)} ${random.pick(DEALER_TRADES)}${random.pick(DEALER_SUFFIXES)}`;
  const name = random.chance(0.4) ? `${trade}, ${random.pick(state.cities)}` : trade;
  const opening = random.next();
  const openingBalance =
    opening < 0.85
      ? Math.round((creditLimit * (0.1 + random.next() * 0.5)) / 100) * 100
      : opening < 0.9
        ? -Math.round((creditLimit * (0.01 + random.next() * 0.04)) / 100) * 100
        : 0;
  return {
    code,
    name,
    stateCode: state.code,
    officer,
    creditLimit,
    /** How much business the customer does relative to an average one. */
    weight,
    profitCenters,
    creditDays: random.pick([15, 30, 30, 45, 60]),
    /** Trade discount in basis points. */
    discountBps: Math.round(random.int(discountFrom, discountTo) / 50) * 50,
    bank: random.pick(BANKS),
    openingBalance,
  };
}

export function masterRows(company: Company) {
  return {
    zones: ZONES.map((z) => ({ code: z.code, name: z.name })),
    states: STATES.map((s) => ({ code: s.code, name: s.name, zone_code: s.zone })),
    profit_centers: PROFIT_CENTERS.map((p) => ({ code: p.code, name: p.name })),
    product_categories: CATEGORIES.map((c) => ({ code: c.code, name: c.name })),
    products: company.products.map((p) => ({
      code: p.code,
      name: p.name,
      category_code: p.categoryCode,
      unit_price: p.unitPrice,
    })),
    users: company.officers.map((o) => ({
      id: o.id,
      username: o.username,
      name: o.name,
      role: o.role,
      manager_id: o.manager?.id ?? null,
      zone_code: o.zoneCode,
      active: 1,
    })),
    customers: company.customers.map((c, i) => ({
      code: c.code,
      name: c.name,
      state_code: c.stateCode,
      sales_officer_id: c.officer.id,
      credit_limit: c.creditLimit,
      // A few dealers have stopped trading; their history stays.
      active: i % 37 === 36 ? 0 : 1,
    })),
    customer_profit_centers: company.customers.flatMap((c) =>
      c.profitCenters.map((pc) => ({ customer_code: c.code, profit_center_code: pc })),
    ),
  };
}

export function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
