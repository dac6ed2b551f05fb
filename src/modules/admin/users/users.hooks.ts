// The hooks of the users module's face (users.api.ts; src/shared/hooks.ts): modules that read
// users (commerce, authentication, companies) cannot be imported from here, so they register
// what they do when a user arrives or changes his password, and what users asks of a company.
import type { Executor } from '../../../db/client.ts';
import { hook, provided } from '../../../shared/hooks.ts';
import type { UserRow } from './users.repo.ts';

/** A user arrived in a company (created, self-registered, invited): document 3, create company rule 7 (commerce). */
export const userArrived = hook<[user: UserRow, now: Date]>();

/** Users arrived together in their companies (the CSV import's batch: issue 27): the same rule, once for all (commerce). */
export const usersArrived = hook<[users: readonly { id: string; companyId: string }[], now: Date]>();

/** A user's password changed: his other sessions end, `keep` (the caller's own) excepted (authentication). */
export const passwordChanged = hook<[userId: string, keep: string | undefined, now: Date]>();

/** Whether a company is a BP (bp_admin and bp_finance belong to users of one), answered by companies. */
export const companyIsBP = provided<(exec: Executor, companyId: string) => Promise<boolean>>("a company's isBP");

/**
 * A company's organisation, its row share-locked until the transaction ends (as the users'
 * trigger users_take_company_organisation reads it), answered by companies: users created
 * together take it once for all (createUsersTogether).
 */
export const companyOrganisationShared = provided<(exec: Executor, companyId: string) => Promise<string | null>>(
  "a company's organisation, share-locked",
);
