// Rules of the companies operations (document 3, Companies; decisions in docs/decisions.md).
import type { Static } from 'typebox';
import type { Caller, Role } from '../../../authz/roles.ts';
import { SUBSCRIPTION_FLAGS } from '../../../authz/conditions.ts';
import { SUBSCRIPTION_FLAG_GRANTS } from './companies.policy.ts';
import { grantsReach } from '../../../authz/reach.ts';
import type { Executor } from '../../../db/client.ts';
import { fail } from '../../../errors/catalogue.ts';
import { newId } from '../../../shared/ids.ts';
import { rowWithout } from '../../../db/row-json.ts';
import { companies } from './companies.tables.ts';
import { COUNTRY_CODES, dataLocationOf } from './countries.ts';
import * as repo from './companies.repo.ts';
import { companyCommerce } from './companies.hooks.ts';
import { moveUserToCompany, userCounts, userRoles } from '../users/users.api.ts';
import { hasSites } from '../sites/sites.api.ts';
import {
  CA_PROVINCES,
  US_STATES,
  type Company,
  type CreateCompanyBody,
  type UpdateCompanyBody,
} from './companies.schemas.ts';
import { isOneOf } from '../../../shared/json-values.ts';

type CreateBody = Static<typeof CreateCompanyBody>;
type UpdateBody = Static<typeof UpdateCompanyBody>;

export const RESERVED_NAMES = ['default', 'terminated'];

const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  ø: 'o',
  Ø: 'O',
  œ: 'oe',
  Œ: 'OE',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'Th',
  ð: 'd',
  Ð: 'D',
  ı: 'i',
};
// Built from the table's keys rather than written as a literal: the bundle (src/bundle.ts) writes
// them as \u escapes, and a source of ASCII only is held in memory at one byte a character.
const SPECIAL_LETTER = new RegExp(`[${Object.keys(SPECIAL).join('')}]`, 'g');

/** Printable ASCII only: nothing to transliterate (most names; every company answer holds one). */
const PLAIN = /^[\x20-\x7e]*$/;

/** ASCII transliteration of a name (latin_name). */
export function latinName(name: string): string {
  if (PLAIN.test(name)) return name;
  return name
    .replace(SPECIAL_LETTER, (c) => SPECIAL[c] ?? c)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '');
}

export interface View {
  selectedThemeObj?: boolean;
  /** numberUsers, when the reader may see it. */
  numberUsers?: number;
  subscriptions?: repo.SubscriptionView[];
}

/** A company's columns that its answer shows as they are. */
const answeredColumns = rowWithout<
  repo.CompanyRow,
  'systemRole' | 'customisations' | 'featureCustomisation' | 'createdByUserId'
>(companies, ['systemRole', 'customisations', 'featureCustomisation', 'createdByUserId']);

export function toApiCompany(c: repo.CompanyRow, v: View = {}): Static<typeof Company> {
  const theme = c.selectedTheme;
  // The enumerated columns hold only values the schema let in: their text is the document's union.
  return Object.assign(answeredColumns(c), {
    selectedTheme: v.selectedThemeObj ? theme : (theme?.light ?? theme?.dark ?? null),
    latin_name: latinName(c.name),
    ...(v.numberUsers !== undefined ? { numberUsers: v.numberUsers } : {}),
    dataLocation: dataLocationOf(c.country),
    settings: { iceServers: [] },
    forceHandshake: false,
    visiblityRequests: [],
    officeSuiteScopesGranted: [],
    subscriptions: v.subscriptions ?? [],
  });
}

const OPERATOR_ROLES: readonly Role[] = ['superadmin', 'support', 'business_admin'];

/**
 * numberUsers is shown when the reader reads his own company or one he manages: operators
 * always; others unless the company is only their BP company.
 */
export function mayCountUsers(caller: Caller, c: repo.CompanyRow): boolean {
  if (caller.roles.some((r) => OPERATOR_ROLES.includes(r))) return true;
  if (c.id === caller.companyId) return true;
  return c.id !== caller.companyBpId;
}

/** The company as one read returns it: subscriptions and, when allowed, numberUsers. */
export async function readCompany(
  exec: Executor,
  caller: Caller,
  c: repo.CompanyRow,
  selectedThemeObj?: boolean,
  countable = mayCountUsers(caller, c),
) {
  const [subs, counts] = await Promise.all([
    companyCommerce.get.subscriptionsOf(exec, [c.id]),
    countable ? userCounts(exec, [c.id]) : undefined,
  ]);
  return toApiCompany(c, {
    selectedThemeObj,
    subscriptions: subs.get(c.id) ?? [],
    numberUsers: counts ? (counts.get(c.id) ?? 0) : undefined,
  });
}

// ---------------------------------------------------------------------------------------------
// Field rules shared by create and update.

/**
 * Fields only a superadmin sets (others get 403 when they send them at creation or change them),
 * with two exceptions: the subscription flags, which the company's BP sets too (doc 1, update
 * subscription, rule 5: SUBSCRIPTION_FLAG_GRANTS), and bpIsContractAccepted, which a bp_admin of
 * a BP company sets to true on his own company (the contract acceptance of document 3).
 */
const SUPERADMIN_FIELDS = [
  'status',
  'catalogId',
  'superadminComment',
  'bpType',
  'bpBusinessModel',
  'bpHasRightToSell',
  'bpIsContractAccepted',
  'privateDC',
  'adminHasRightToUpdateSubscriptions',
  'adminAllowedUpdateSubscriptionsOps',
  'adminCanSetCustomData',
] as const;
/** Also superadmin-only on update (at creation the rules of document 3 derive them). */
const SUPERADMIN_UPDATE_FIELDS = [...SUPERADMIN_FIELDS, 'isBP', 'bpId', 'bpHasRightToConnect'] as const;

const isSuperadmin = (caller: Caller) => caller.roles.includes('superadmin');
const isSubscriptionFlag = (k: string) => isOneOf(SUBSCRIPTION_FLAGS, k);
const holdsBpRole = (caller: Caller) => caller.roles.includes('bp_admin') || caller.roles.includes('bp_finance');

/** Document 3, bpContractAcceptationInfo: a bp_admin of a BP company accepts its contract. */
const acceptsOwnContract = (caller: Caller, target: repo.CompanyRow, accepted: boolean | undefined) =>
  accepted === true && caller.roles.includes('bp_admin') && target.id === caller.companyId && target.isBP;

/**
 * Who accepted the contract, set when bpIsContractAccepted becomes true: the bp_admin, or only the
 * date when a superadmin sets it for the BP; cleared when it becomes false.
 */
function contractAcceptation(caller: Caller, companyId: string, accepted: boolean, now: Date) {
  if (!accepted) return null;
  const byBpAdmin = caller.roles.includes('bp_admin') && caller.companyId === companyId;
  return {
    acceptationDate: now.toISOString(),
    ...(byBpAdmin ? { bpAdminId: caller.userId, bpAdminLoginEmail: caller.loginEmail } : {}),
  };
}

function checkName(name: string): void {
  if (RESERVED_NAMES.includes(name.trim().toLowerCase())) fail('COMPANY_NAME_RESERVED', { name });
}

function checkPlace(country: string, state: string | null | undefined): void {
  if (!COUNTRY_CODES.has(country)) fail('COMPANY_COUNTRY_UNKNOWN', { country });
  const allowed: readonly string[] | undefined =
    country === 'USA' ? US_STATES : country === 'CAN' ? CA_PROVINCES : undefined;
  if (allowed ? !state || !allowed.includes(state) : state != null)
    fail('COMPANY_STATE_INVALID', { country, state: state ?? null });
}

async function checkBp(exec: Executor, bpId: string, selfId?: string): Promise<repo.CompanyRow> {
  const bp = bpId === selfId ? undefined : await repo.findCompany(exec, bpId);
  if (!bp || !bp.isBP || bp.status === 'terminated') fail('COMPANY_BP_INVALID', { bpId });
  return bp;
}

/** The writable fields of a body as columns (everything but the ones the rules decide). */
function columnsOf(body: CreateBody | UpdateBody): Partial<repo.NewCompany> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (v !== undefined) out[k] = v;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Create (document 3, create company rules 1 to 8).

/**
 * `parent` is the authorised target: the company named by bpId, or the caller's own company.
 * `own`: the enduser operation (a user of the Default company creating his own).
 */
export async function createCompany(
  db: Executor,
  caller: Caller,
  parent: repo.CompanyRow,
  body: CreateBody,
  now: Date,
  own = false,
) {
  return db.transaction(async (exec) => {
    checkName(body.name);
    const country = body.country ?? 'FRA';
    checkPlace(country, body.state);
    if (!isSuperadmin(caller)) {
      // The subscription flags are checked once the company's BP is known (below).
      const refused = [...SUPERADMIN_FIELDS, ...(own ? (['isBP', 'bpId', 'bpHasRightToConnect'] as const) : [])].filter(
        (k) => body[k] !== undefined && !isSubscriptionFlag(k),
      );
      if (refused.length) fail('COMPANY_SUPERADMIN_FIELD', { fields: refused });
    }
    const values: repo.NewCompany = {
      ...columnsOf(body),
      id: newId(),
      name: body.name,
      country,
      createdByUserId: caller.userId,
      creationDate: now,
      statusUpdatedDate: now,
    };
    const bpRules = (bp: repo.CompanyRow) => {
      values.bpId = bp.id;
      if (bp.bpType === 'VAD' && body.isBP === true) {
        // Rule 4: a VAD creates a BP IR linked to it.
        Object.assign(values, { isBP: true, bpType: 'IR', bpBusinessModel: 'resell', bpHasRightToConnect: true });
      } else {
        // Rules 4 (isBP false or absent) and 5 (DR, IR): an End Customer.
        Object.assign(values, { isBP: false, bpType: null, bpBusinessModel: null });
      }
    };
    if (own) {
      Object.assign(values, { status: 'active', isBP: false, bpId: null, organisationId: null });
    } else if (isSuperadmin(caller)) {
      if (body.bpId) {
        const bp = await checkBp(exec, body.bpId);
        if (body.isBP === undefined) bpRules(bp);
      }
      values.status = body.status ?? 'active';
      if (values.status === 'terminated') fail('COMPANY_STATUS_NOT_SETTABLE');
    } else if (caller.roles.includes('organization_admin') && caller.organisationId) {
      // Rules 3 and 6: in the organisation, or under a BP of the organisation.
      values.organisationId = caller.organisationId;
      values.status = 'active';
      if (body.bpId) bpRules(await checkBp(exec, body.bpId));
      else Object.assign(values, { isBP: false, bpId: null, bpType: null });
    } else if ((caller.roles.includes('bp_admin') || caller.roles.includes('bp_finance')) && caller.companyIsBP) {
      // Rule 2: attached to the caller's BP company, starts initializing.
      bpRules(parent.id === caller.companyId ? parent : await checkBp(exec, caller.companyId));
      values.status = 'initializing';
    } else {
      fail('FORBIDDEN', { operationId: 'createCompany' });
    }
    // Doc 1, update subscription, rule 5: the BP sets the subscription flags of the companies it
    // creates under itself (own: never, the new company has no BP).
    const flags = SUBSCRIPTION_FLAGS.filter((k) => body[k] !== undefined);
    if (flags.length && !isSuperadmin(caller) && (own || !holdsBpRole(caller) || values.bpId !== caller.companyId))
      fail('COMPANY_SUPERADMIN_FIELD', { fields: flags });
    if (values.bpIsContractAccepted)
      values.bpContractAcceptationInfo = contractAcceptation(caller, values.id, true, now);
    if (values.catalogId) await companyCommerce.get.assertCatalogExists(exec, values.catalogId);
    const row = await repo.insertCompany(exec, values);
    // Rule 7: the default offer.
    await companyCommerce.get.addDefaultSubscription(exec, row.id, now);
    if (own) {
      const roles = [...new Set<Role>([...(await userRoles(exec, caller.userId)), 'company_admin', 'user'])];
      await moveUserToCompany(exec, caller.userId, row.id, roles, now);
      // He arrives in it: his licences follow (rule 7: its default subscription's).
      await companyCommerce.get.userChangedCompany(exec, { id: caller.userId, companyId: row.id }, now);
    }
    return readCompany(exec, { ...caller, companyId: own ? row.id : caller.companyId }, row);
  });
}

// ---------------------------------------------------------------------------------------------
// Update.

export async function updateCompany(
  db: Executor,
  caller: Caller,
  target: repo.CompanyRow,
  body: UpdateBody,
  now: Date,
  selectedThemeObj?: boolean,
) {
  return db.transaction(async (exec) => {
    const changed = (k: keyof UpdateBody & keyof repo.CompanyRow) =>
      body[k] !== undefined && JSON.stringify(body[k]) !== JSON.stringify(target[k]);
    if (!isSuperadmin(caller)) {
      let refused: string[] = SUPERADMIN_UPDATE_FIELDS.filter((k) => changed(k));
      if (acceptsOwnContract(caller, target, body.bpIsContractAccepted))
        refused = refused.filter((k) => k !== 'bpIsContractAccepted');
      // Doc 1, update subscription, rule 5: the company's BP sets its subscription flags.
      if (
        refused.some(isSubscriptionFlag) &&
        (await grantsReach(exec, caller, SUBSCRIPTION_FLAG_GRANTS, 'company', target.id))
      )
        refused = refused.filter((k) => !isSubscriptionFlag(k));
      if (refused.length) fail('COMPANY_SUPERADMIN_FIELD', { fields: refused });
      if (body.customData !== undefined && target.adminCanSetCustomData === false)
        fail('COMPANY_CUSTOM_DATA_NOT_ALLOWED');
    }
    if (body.name !== undefined && body.name !== target.name) {
      if (target.systemRole) fail('COMPANY_SYSTEM_RENAME', { name: target.name });
      checkName(body.name);
    }
    if (changed('country')) fail('COMPANY_DATA_LOCATION_FIXED', { country: target.country });
    if (changed('privateDC')) fail('COMPANY_CREATE_ONLY_FIELD', { field: 'privateDC' });
    if (body.state !== undefined) checkPlace(target.country, body.state);
    if (body.status === 'terminated' && target.status !== 'terminated') fail('COMPANY_STATUS_NOT_SETTABLE');
    if (body.bpId && changed('bpId')) await checkBp(exec, body.bpId, target.id);
    if (body.catalogId && changed('catalogId')) await companyCommerce.get.assertCatalogExists(exec, body.catalogId);
    const isBP = body.isBP ?? target.isBP;
    if (body.allowPhoneNumbersVisibility === true && !isBP) fail('COMPANY_NOT_BP');
    // Rule 8: CENTREX status is fixed once the company has sites.
    if (changed('isCentrex') && (await hasSites(exec, target.id))) fail('COMPANY_CENTREX_HAS_SITES');
    const patch = columnsOf(body);
    delete patch.country;
    delete patch.privateDC;
    if (!isBP) patch.allowPhoneNumbersVisibility = false;
    if (changed('status')) patch.statusUpdatedDate = now;
    if (changed('bpIsContractAccepted'))
      patch.bpContractAcceptationInfo = contractAcceptation(caller, target.id, body.bpIsContractAccepted === true, now);
    const row = Object.keys(patch).length ? await repo.updateCompanyRow(exec, target.id, patch) : target;
    return readCompany(exec, caller, row, selectedThemeObj);
  });
}

// ---------------------------------------------------------------------------------------------
// Delete: terminated, disabled, renamed; never removed.

export async function deleteCompany(db: Executor, caller: Caller, target: repo.CompanyRow, now: Date) {
  return db.transaction(async (exec) => {
    if (target.systemRole) fail('COMPANY_SYSTEM_PROTECTED', { name: target.name });
    if (target.status === 'terminated') return readCompany(exec, caller, target);
    if (await companyCommerce.get.hasOtherActiveSubscriptions(exec, target.id)) fail('COMPANY_HAS_SUBSCRIPTIONS');
    await companyCommerce.get.terminateSubscriptions(exec, target.id, now);
    const row = await repo.updateCompanyRow(exec, target.id, {
      status: 'terminated',
      statusUpdatedDate: now,
      name: `${target.name} (terminated ${target.id})`,
      userSelfRegisterEnabled: false,
    });
    return readCompany(exec, caller, row);
  });
}

/** `customData` undefined: the body held `{}`, which changes nothing (route table, conventions). */
export async function setCustomData(
  exec: Executor,
  caller: Caller,
  target: repo.CompanyRow,
  customData: object | undefined,
) {
  const manager = caller.roles.some(
    (r) => r === 'superadmin' || r === 'bp_admin' || r === 'bp_finance' || r === 'organization_admin',
  );
  if (!manager && target.adminCanSetCustomData === false) fail('COMPANY_CUSTOM_DATA_NOT_ALLOWED');
  const row =
    customData === undefined
      ? target
      : await repo.updateCompanyRow(exec, target.id, { customData: Object.fromEntries(Object.entries(customData)) });
  return { id: row.id, customData: row.customData };
}

/** The company's subscriptions with their offers, oldest first, for the service description of customisation. */
export async function companySubscriptions(exec: Executor, companyId: string): Promise<repo.SubscriptionView[]> {
  return (await companyCommerce.get.subscriptionsOf(exec, [companyId])).get(companyId) ?? [];
}
