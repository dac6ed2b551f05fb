// The user part of import lines, a batch at a time (document 3, Bulk import: upsert "create or
// update; empty fields ignored", sync "create or update; empty fields taken into account", delete
// "delete a user"; issue 27, points 2, 4 and 8). The lines of a batch are judged against the
// users of their logins, read in one statement; the batch is then written in one statement per
// kind of change (created, updated, deleted), so a line costs the same whether it is the first or
// the hundred-thousandth. The rules are those of createUser, updateUser and deleteUser for a caller
// who may manage the company's users (users.policy.ts): a login used by another company is refused,
// as is a user holding a role the caller may not manage (targetHasNoHigherRole) and his own account.
import { newId } from '../../shared/ids.ts';
import type { Executor } from '../../db/client.ts';
import type { Role } from '../../authz/roles.ts';
import {
  createUsersTogether,
  deleteUsersTogether,
  findUsersByLogins,
  patchUsersTogether,
  type NewUser,
  type UserEmail,
  type UserPatch,
  type UserPhoneNumber,
  type UserRow,
} from '../admin/users/users.api.ts';
import { templatesByName } from '../admin/customisation/customisation.api.ts';
import type { ImportLine, UserFields } from './columns.ts';
import { lineError, type LineError } from './line-errors.ts';
import type { LineUser } from './lines.ts';

/** Who runs the lines: the administrator the import acts for. */
export interface UserLinesContext {
  exec: Executor;
  callerId: string;
  callerRoles: readonly Role[];
  companyId: string;
  now: Date;
  /** A check: judge, write nothing. */
  dryRun: boolean;
}

export type UserAction = 'create' | 'update' | 'delete' | 'none';

export interface UserOutcome {
  user?: LineUser;
  userAction?: UserAction;
  error?: LineError;
  /** The user's login was taken between the judgement and the insert (another writer): judge the line again. */
  retry?: boolean;
}

/** Roles only a superadmin may manage (users.policy.ts: targetHasNoHigherRole). */
const HIGHER_ROLES: readonly Role[] = ['superadmin', 'support', 'business_admin'];

/** The user columns and the users-table fields they fill, beside the three that live in arrays or a template. */
const PLAIN_FIELDS = [
  'firstName',
  'lastName',
  'nickName',
  'title',
  'jobTitle',
  'department',
  'country',
  'language',
  'timezone',
] as const satisfies readonly (keyof UserFields & keyof UserRow)[];

/** `email0` is the user's first work e-mail: replaced (or removed) in place, his others kept. */
function withWorkEmail(list: readonly UserEmail[], email: string | null): UserEmail[] {
  const at = list.findIndex((e) => e.type === 'work');
  const rest = list.filter((_, i) => i !== at);
  if (email === null) return rest;
  const entry: UserEmail = { email, type: 'work' };
  return at === -1 ? [entry, ...rest] : [...list.slice(0, at), entry, ...list.slice(at + 1)];
}

/** `businessPhone0` and `mobilePhone0`: his first work landline and work mobile, replaced or removed in place. */
function withWorkPhone(
  list: readonly UserPhoneNumber[],
  deviceType: 'landline' | 'mobile',
  number: string | null,
): UserPhoneNumber[] {
  const at = list.findIndex((p) => p.type === 'work' && p.deviceType === deviceType);
  const rest = list.filter((_, i) => i !== at);
  if (number === null) return rest;
  const entry: UserPhoneNumber = { number, type: 'work', deviceType };
  return at === -1 ? [...list, entry] : [...list.slice(0, at), entry, ...list.slice(at + 1)];
}

/** The values a line gives its user's fields (a cleared one: null), over what he has (`before`). */
function fieldsOf(line: ImportLine, before: Pick<UserRow, 'emails' | 'phoneNumbers'>) {
  const given = (k: keyof UserFields): string | null | undefined =>
    line.user[k] !== undefined ? line.user[k] : line.cleared.includes(k) ? null : undefined;
  const out: Partial<NewUser> = {};
  for (const k of PLAIN_FIELDS) {
    const v = given(k);
    if (v !== undefined) Reflect.set(out, k, v ?? (k === 'firstName' || k === 'lastName' ? '' : null));
  }
  const email = given('email0');
  if (email !== undefined) out.emails = withWorkEmail(before.emails, email);
  let phones = before.phoneNumbers;
  const business = given('businessPhone0');
  if (business !== undefined) phones = withWorkPhone(phones, 'landline', business);
  const mobile = given('mobilePhone0');
  if (mobile !== undefined) phones = withWorkPhone(phones, 'mobile', mobile);
  if (phones !== before.phoneNumbers) out.phoneNumbers = phones;
  return out;
}

/** A value as JSON with its objects' keys in order (jsonb gives them back in its own order). */
const canonical = (v: unknown): string =>
  Array.isArray(v)
    ? `[${v.map(canonical).join(',')}]`
    : v !== null && typeof v === 'object'
      ? `{${Object.keys(v)
          .sort()
          .map((k) => `${JSON.stringify(k)}:${canonical(Reflect.get(v, k))}`)
          .join(',')}}`
      : JSON.stringify(v ?? null);
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/**
 * Judges and (unless a check) applies the user part of each line. `hashes` holds the argon2 hash of
 * each line's password (hashed beforehand, beside the batch: issue 27, point 8). The outcome of a
 * line is its user (for its device or voice part), what was done to him, or its error.
 */
export async function applyUserLines(
  ctx: UserLinesContext,
  lines: readonly ImportLine[],
  hashes: ReadonlyMap<number, string>,
): Promise<UserOutcome[]> {
  const existing = new Map<string, UserRow>();
  for (const u of await findUsersByLogins(
    ctx.exec,
    lines.map((l) => l.login),
  ))
    existing.set(u.loginEmail.toLowerCase(), u);
  const templateNames = [
    ...new Set(
      lines.flatMap((l) =>
        l.user.selectedAppCustomisationTemplateName ? [l.user.selectedAppCustomisationTemplateName] : [],
      ),
    ),
  ];
  const templates = await templatesByName(ctx.exec, templateNames);
  const manageable = (u: UserRow) =>
    ctx.callerRoles.includes('superadmin') || !u.roles.some((r) => HIGHER_ROLES.includes(r));

  const creates: NewUser[] = [];
  const patches: { id: string; patch: UserPatch }[] = [];
  const deletes: string[] = [];
  const outcomes = lines.map((line): UserOutcome => {
    const found = existing.get(line.login);
    const ours = found && found.companyId === ctx.companyId ? found : undefined;
    const user = (u: UserRow | undefined, id: string | null, created: boolean): LineUser => ({
      id,
      created,
      roles: u?.roles ?? ['user'],
    });
    if (found && !ours)
      return {
        error: lineError(
          line.action === 'delete' || line.action === 'detach' ? 'USER_NOT_FOUND' : 'LOGIN_OF_OTHER_COMPANY',
        ),
      };
    if (ours && !manageable(ours)) return { error: lineError('USER_NOT_MANAGEABLE') };
    if (line.action === 'delete') {
      if (!ours) return { error: lineError('USER_NOT_FOUND') };
      if (ours.id === ctx.callerId) return { error: lineError('CANNOT_DELETE_SELF') };
      deletes.push(ours.id);
      return { user: user(ours, ours.id, false), userAction: 'delete' };
    }
    if (line.action === 'detach') {
      if (!ours) return { error: lineError('USER_NOT_FOUND') };
      return { user: user(ours, ours.id, false), userAction: 'none' };
    }
    // upsert and sync: the template a name gives (or clears, on a sync line).
    const templateName = line.user.selectedAppCustomisationTemplateName;
    const template = templateName ? templates.get(templateName.toLowerCase()) : undefined;
    if (templateName && !template) return { error: lineError('TEMPLATE_UNKNOWN') };
    const values = fieldsOf(line, ours ?? { emails: [], phoneNumbers: [] });
    const hash = hashes.get(line.line);
    if (!ours) {
      const id = newId();
      // Every created row gives every column (users.repo insertUsers: one shape per batch).
      creates.push({
        id,
        companyId: ctx.companyId,
        loginEmail: line.login,
        // No password: the account cannot sign in until one is set (a reset, or an administrator).
        passwordHash: hash ?? '',
        firstName: '',
        lastName: '',
        nickName: null,
        title: null,
        jobTitle: null,
        department: null,
        country: null,
        language: null,
        timezone: null,
        emails: [],
        phoneNumbers: [],
        ...values,
        roles: ['user'],
        selectedAppCustomisationTemplate: template?.id ?? null,
        customisations: template?.values ?? {},
        creationDate: ctx.now,
        lastUpdateDate: ctx.now,
      });
      return { user: user(undefined, ctx.dryRun ? null : id, true), userAction: 'create' };
    }
    const patch: UserPatch = { lastUpdateDate: ctx.now };
    let changed = false;
    for (const [k, v] of Object.entries(values)) {
      if (same(v, Reflect.get(ours, k))) continue;
      Object.assign(patch, { [k]: v });
      changed = true;
    }
    if (hash !== undefined) [patch.passwordHash, changed] = [hash, true];
    if (template && template.id !== ours.selectedAppCustomisationTemplate) {
      Object.assign(patch, { selectedAppCustomisationTemplate: template.id, customisations: template.values });
      changed = true;
    } else if (line.cleared.includes('selectedAppCustomisationTemplateName') && ours.selectedAppCustomisationTemplate) {
      Object.assign(patch, { selectedAppCustomisationTemplate: null });
      changed = true;
    }
    if (changed) patches.push({ id: ours.id, patch });
    return { user: user(ours, ours.id, false), userAction: changed ? 'update' : 'none' };
  });
  if (ctx.dryRun) return outcomes;

  const made = await createUsersTogether(ctx.exec, creates, ctx.now);
  await patchUsersTogether(ctx.exec, patches, ctx.now);
  await deleteUsersTogether(ctx.exec, deletes);
  // A login taken since the lines were judged (another writer, of this company or another): the
  // line is judged again on its own (engine.ts), and finds the user now there.
  return outcomes.map((o) => (o.userAction === 'create' && o.user?.id && !made.has(o.user.id) ? { retry: true } : o));
}
