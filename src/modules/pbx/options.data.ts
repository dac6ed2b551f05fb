// Reference data of a CloudPBX (document 2; issue 25, point 2): its languages, its barring options,
// the emergency numbers of its country and the device models it drives. Document 2 names the
// languages and the barring ids; the emergency numbers and the device models are the service's
// tables (docs/decisions.md, "CloudPBX: options and reference data").
import type { Language } from './pbx.schemas.ts';

/** Document 2, `language`: the nine codes, with their names. */
export const LANGUAGE_NAMES: Readonly<Record<Language, string>> = {
  ro: 'Romanian',
  es: 'Spanish',
  it: 'Italian',
  de: 'German',
  fr: 'French',
  en: 'English',
  ar: 'Arabic',
  he: 'Hebrew',
  nl: 'Dutch',
};

/** Document 2, barring option lists: the ids seen, with what each allows. */
export const BARRING_PERMISSIONS = [
  { id: 'local', description: 'Local calls only' },
  { id: 'nat_local', description: 'National and local calls' },
  { id: 'int_nat_local', description: 'International, national and local calls' },
] as const;
export const BARRING_RESTRICTIONS = [
  { id: 'no_restriction', description: 'No restriction' },
  { id: 'surcharged_numbers', description: 'Surcharged (premium rate) numbers barred' },
  { id: 'custom_numbers', description: 'Custom numbers barred (the CloudPBX’s custom numbers restriction)' },
] as const;

export interface EmergencyNumber {
  number: string;
  description: string;
}

const EU_112: EmergencyNumber = { number: '112', description: 'European emergency number' };

/**
 * Emergency numbers by country (ISO 3166-1 alpha-3, the CloudPBX's `country`): the numbers a
 * subscriber may always call, whatever his barring. A country not named gets 112 alone.
 */
export const EMERGENCY_NUMBERS_BY_COUNTRY: Readonly<Record<string, readonly EmergencyNumber[]>> = {
  FRA: [
    EU_112,
    { number: '15', description: 'Medical emergency (SAMU)' },
    { number: '17', description: 'Police' },
    { number: '18', description: 'Fire brigade' },
    { number: '114', description: 'Emergency number for the deaf and hard of hearing' },
    { number: '115', description: 'Social emergency (homeless)' },
    { number: '119', description: 'Children in danger' },
    { number: '191', description: 'Aeronautical rescue' },
    { number: '196', description: 'Sea rescue' },
    { number: '116000', description: 'Missing children' },
  ],
  DEU: [EU_112, { number: '110', description: 'Police' }],
  AUT: [
    EU_112,
    { number: '122', description: 'Fire brigade' },
    { number: '133', description: 'Police' },
    { number: '144', description: 'Ambulance' },
  ],
  ESP: [
    EU_112,
    { number: '061', description: 'Medical emergency' },
    { number: '062', description: 'Guardia Civil' },
    { number: '080', description: 'Fire brigade' },
    { number: '091', description: 'National police' },
    { number: '092', description: 'Local police' },
    { number: '016', description: 'Gender violence helpline' },
  ],
  ITA: [
    EU_112,
    { number: '113', description: 'State police' },
    { number: '115', description: 'Fire brigade' },
    { number: '118', description: 'Medical emergency' },
    { number: '1530', description: 'Coast guard' },
  ],
  GBR: [
    { number: '999', description: 'Emergency services' },
    EU_112,
    { number: '101', description: 'Police (non-emergency)' },
    { number: '111', description: 'NHS (urgent medical help)' },
  ],
  IRL: [{ number: '999', description: 'Emergency services' }, EU_112],
  USA: [{ number: '911', description: 'Emergency services' }],
  CAN: [{ number: '911', description: 'Emergency services' }],
  BEL: [
    EU_112,
    { number: '100', description: 'Fire brigade and ambulance' },
    { number: '101', description: 'Police' },
    { number: '1733', description: 'Fire brigade and ambulance (non-urgent)' },
  ],
  NLD: [EU_112, { number: '09008844', description: 'Police (non-emergency)' }],
  LUX: [EU_112, { number: '113', description: 'Police' }],
  CHE: [
    EU_112,
    { number: '117', description: 'Police' },
    { number: '118', description: 'Fire brigade' },
    { number: '144', description: 'Ambulance' },
    { number: '145', description: 'Poison emergency' },
    { number: '1414', description: 'Air rescue (Rega)' },
  ],
};

/** The emergency numbers of a CloudPBX of that country: the table's, else 112. */
export function emergencyNumbersOf(country: string | null | undefined): readonly EmergencyNumber[] {
  return EMERGENCY_NUMBERS_BY_COUNTRY[(country ?? '').toUpperCase()] ?? [EU_112];
}

/** Document 2, device model: id 999999 is the generic SIP model, with no key. */
export const GENERIC_SIP_MODEL_ID = 999999;

export interface DeviceModelEntry {
  id: number;
  vendor: string;
  model: string;
  programmableKeys: number;
  can_speeddial: boolean;
  can_monitor: boolean;
}

/**
 * The device models a CloudPBX drives, with their programmable keys (the keys a desk phone offers
 * for speed dials and monitoring; ids are the service's). `keys` of the answer lists them,
 * numbered from 1 (document 2 leaves the elements' fields unsaid).
 */
/** The model of a stored device; a model since withdrawn from the table is shown by its id, with no keys. */
export function storedDeviceModel(deviceTypeId: number): DeviceModelEntry {
  return (
    DEVICE_MODELS.find((m) => m.id === deviceTypeId) ?? {
      id: deviceTypeId,
      vendor: 'Unknown',
      model: 'Unknown',
      programmableKeys: 0,
      can_speeddial: false,
      can_monitor: false,
    }
  );
}

export const DEVICE_MODELS: readonly DeviceModelEntry[] = [
  { id: 1001, vendor: 'Yealink', model: 'SIP-T33G', programmableKeys: 4, can_speeddial: true, can_monitor: true },
  { id: 1002, vendor: 'Yealink', model: 'SIP-T46U', programmableKeys: 16, can_speeddial: true, can_monitor: true },
  { id: 1003, vendor: 'Yealink', model: 'SIP-T54W', programmableKeys: 27, can_speeddial: true, can_monitor: true },
  { id: 2001, vendor: 'Snom', model: 'D735', programmableKeys: 32, can_speeddial: true, can_monitor: true },
  { id: 2002, vendor: 'Snom', model: 'D785', programmableKeys: 24, can_speeddial: true, can_monitor: true },
  { id: 3001, vendor: 'Poly', model: 'VVX 450', programmableKeys: 12, can_speeddial: true, can_monitor: true },
  {
    id: GENERIC_SIP_MODEL_ID,
    vendor: 'Generic',
    model: 'SIP device',
    programmableKeys: 0,
    can_speeddial: false,
    can_monitor: false,
  },
];
