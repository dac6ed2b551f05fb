// The states (USA) and provinces (Canada) the service accepts for a company (document 3, country
// and state; the service's US_STATES and CA_PROVINCES). `satisfies` checks each entry against the
// OpenAPI document's own enumeration, so a code the service would refuse does not compile.
import type { Schemas } from '../../api/client.ts';

export type CompanyState = NonNullable<Schemas['CreateCompanyBody']['state']>;

// prettier-ignore
export const US_STATES = [
  'AA', 'AE', 'AP', 'AK', 'AL', 'AR', 'AZ', 'CA', 'CO', 'CT', 'DC', 'DE', 'FL', 'GA', 'GU', 'HI', 'IA', 'ID',
  'IL', 'IN', 'KS', 'KY', 'LA', 'MA', 'MD', 'ME', 'MI', 'MN', 'MO', 'MS', 'MT', 'NC', 'ND', 'NE', 'NH', 'NJ',
  'NM', 'NV', 'NY', 'OH', 'OK', 'OR', 'PA', 'PR', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VA', 'VI', 'VT', 'WA',
  'WI', 'WV', 'WY',
] as const satisfies readonly CompanyState[];
export const CA_PROVINCES = [
  'AB',
  'BC',
  'MB',
  'NB',
  'NL',
  'NS',
  'NT',
  'NU',
  'ON',
  'PE',
  'QC',
  'SK',
  'YT',
] as const satisfies readonly CompanyState[];

const ALL: readonly string[] = [...US_STATES, ...CA_PROVINCES];
export const isCompanyState = (s: string | null): s is CompanyState => s !== null && ALL.includes(s);
