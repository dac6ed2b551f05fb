// Tax rates (docs/billing.md, "Money": tax per item at the rate of the invoiced BP's country, from a
// configurable table). The table maps ISO 3166 alpha-3 codes (as companies.country) to a rate as
// decimal text (0.2 = 20 %). BILLING_TAX_RATES (src/settings.ts) adds or replaces entries of the
// built-in table below; a country in neither has the rate 0 (docs/billing.md, "Tax").
import type { Config } from '../../config.ts';

/** The country of a company without one (the platform's home country). */
export const DEFAULT_TAX_COUNTRY = 'FRA';

/** Standard VAT rates of the EU member states, and of a few European neighbours; others: 0. */
export const BUILT_IN_TAX_RATES: Readonly<Record<string, string>> = {
  AUT: '0.20',
  BEL: '0.21',
  BGR: '0.20',
  HRV: '0.25',
  CYP: '0.19',
  CZE: '0.21',
  DNK: '0.25',
  EST: '0.24',
  FIN: '0.255',
  FRA: '0.20',
  DEU: '0.19',
  GRC: '0.24',
  HUN: '0.27',
  IRL: '0.23',
  ITA: '0.22',
  LVA: '0.21',
  LTU: '0.21',
  LUX: '0.17',
  MLT: '0.18',
  NLD: '0.21',
  POL: '0.23',
  PRT: '0.23',
  ROU: '0.21',
  SVK: '0.23',
  SVN: '0.22',
  ESP: '0.21',
  SWE: '0.25',
  GBR: '0.20',
  CHE: '0.081',
  NOR: '0.25',
  MCO: '0.20',
};

/** The table in force: the built-in one with the configured entries over it. */
export function taxTable(config: Pick<Config, 'billingTaxRates'>): Record<string, string> {
  return { ...BUILT_IN_TAX_RATES, ...config.billingTaxRates };
}

/** The rate of a country (alpha-3; null: DEFAULT_TAX_COUNTRY) as decimal text; '0' when the table has none. */
export function taxRateFor(table: Readonly<Record<string, string>>, country: string | null | undefined): string {
  return table[(country ?? DEFAULT_TAX_COUNTRY).toUpperCase()] ?? '0';
}
