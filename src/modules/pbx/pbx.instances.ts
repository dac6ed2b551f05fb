// Document 2: "The voice platform instance hosting a new CloudPBX is chosen from the company's
// country." The document names no instance: this table is the service's (docs/decisions.md,
// "CloudPBX: voice platform instance by country"). PBX_VCP_INSTANCES overrides it, entry by entry
// (`FRA=vcp-fr-2`), and `*=<instance>` replaces the default for countries it does not name.

/** The instance of countries the table does not name. */
export const DEFAULT_VCP_INSTANCE = 'vcp-eu-1';

/** Instances by country (ISO 3166-1 alpha-3, the companies' `country`). */
export const VCP_INSTANCES_BY_COUNTRY: Readonly<Record<string, string>> = {
  // Europe: the first instance.
  FRA: 'vcp-eu-1',
  BEL: 'vcp-eu-1',
  LUX: 'vcp-eu-1',
  MCO: 'vcp-eu-1',
  CHE: 'vcp-eu-1',
  ITA: 'vcp-eu-1',
  ESP: 'vcp-eu-1',
  PRT: 'vcp-eu-1',
  NLD: 'vcp-eu-1',
  // Germany and Austria: their own instance (data kept in Germany).
  DEU: 'vcp-de-1',
  AUT: 'vcp-de-1',
  // The United Kingdom and Ireland.
  GBR: 'vcp-uk-1',
  IRL: 'vcp-uk-1',
  // North America.
  USA: 'vcp-na-1',
  CAN: 'vcp-na-1',
  // Middle East (document 2's languages ar and he).
  ARE: 'vcp-me-1',
  SAU: 'vcp-me-1',
  ISR: 'vcp-me-1',
  // Asia-Pacific.
  AUS: 'vcp-apac-1',
  SGP: 'vcp-apac-1',
  IND: 'vcp-apac-1',
};

/** The instance of a new CloudPBX of a company of that country: the setting's (config.pbxVcpInstances), else the table's, else the default. */
export function vcpInstanceFor(country: string | null | undefined, overrides: Record<string, string>): string {
  const c = (country ?? '').toUpperCase();
  return overrides[c] ?? VCP_INSTANCES_BY_COUNTRY[c] ?? overrides['*'] ?? DEFAULT_VCP_INSTANCE;
}
