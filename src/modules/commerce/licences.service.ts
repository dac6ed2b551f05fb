// Rules of licences (document 1, licence counters, create subscription rule 10, update rule 7;
// route table, assignUserLicence / unassignUserLicence; docs/decisions.md, Licences).
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import * as repo from './licences.repo.ts';

export interface ApiLicence {
  subscriptionId: string;
  userId: string;
  userCompanyId: string;
  assignedAt: Date;
}

const toApiLicence = (l: repo.LicenceRow): ApiLicence => ({
  subscriptionId: l.subscriptionId,
  userId: l.userId,
  userCompanyId: l.userCompanyId,
  assignedAt: l.assignedAt,
});

/**
 * Gives the user a licence of the subscription. Document 1, licence counters: a subscription's
 * licences go to its company's users, and those of a BP IR company also to the users of its End
 * Customers. Only an active subscription gives licences, never beyond maxNumberUsers. A user who
 * already holds one gets it back unchanged (a retried request takes no second licence).
 */
export async function assignLicence(
  db: Executor,
  user: { id: string; companyId: string },
  subscriptionId: string,
  now: Date,
): Promise<ApiLicence> {
  return db.transaction(async (tx) => {
    const facts = await repo.assignmentFacts(tx, subscriptionId, user.companyId);
    if (!facts) fail('NOT_FOUND', { target: 'subscription', id: subscriptionId });
    const ofHisCompany = facts.subscriptionCompanyId === user.companyId;
    const ofHisIr = facts.subscriptionCompanyBpType === 'IR' && facts.userCompanyBpId === facts.subscriptionCompanyId;
    if (!ofHisCompany && !ofHisIr) fail('LICENCE_NOT_FOR_USER', { subscriptionId, userId: user.id });
    const row = await repo.insertLicence(tx, {
      subscriptionId,
      userId: user.id,
      userCompanyId: user.companyId,
      assignedAt: now,
    });
    if (!row) return toApiLicence((await repo.findLicence(tx, subscriptionId, user.id))!);
    if (!(await repo.takeLicence(tx, subscriptionId))) {
      // The guarded UPDATE took nothing: tell why (the transaction rolls the row back).
      if ((await repo.subscriptionStatus(tx, subscriptionId)) !== 'active')
        fail('SUBSCRIPTION_NOT_ACTIVE', { subscriptionId });
      fail('LICENCE_LIMIT_REACHED', { subscriptionId });
    }
    return toApiLicence(row);
  });
}

/** Takes the user's licence back; a user without one is left as he is (the request is idempotent). */
export async function unassignLicence(db: Executor, userId: string, subscriptionId: string): Promise<boolean> {
  return repo.deleteLicence(db, subscriptionId, userId);
}

/**
 * Document 3, create company rule 7: "its users are assigned to [the default subscription] on
 * arrival". Every way a user arrives calls this in the transaction that creates him (created by
 * an administrator, self-registered, invited; the CSV import next). The default offer has no
 * maxNumberUsers, so this never fails for want of a licence; a company without a default
 * subscription yet (made before the default offer existed) gives none.
 */
export async function assignDefaultLicence(
  exec: Executor,
  user: { id: string; companyId: string },
  now: Date,
): Promise<void> {
  await assignDefaultLicences(exec, [user], now);
}

/**
 * The same for users arriving together (the CSV import's batch, issue 27, point 4: "licences are
 * assigned from the company's subscriptions as a new user's default licence is"): one INSERT and
 * one guarded UPDATE per company, whatever the number of users.
 */
export async function assignDefaultLicences(
  exec: Executor,
  users: readonly { id: string; companyId: string }[],
  now: Date,
): Promise<void> {
  const byCompany = new Map<string, string[]>();
  // Appended in place: a batch of the import names a thousand users of one company.
  for (const u of users) {
    const ids = byCompany.get(u.companyId);
    if (ids) ids.push(u.id);
    else byCompany.set(u.companyId, [u.id]);
  }
  for (const [companyId, userIds] of byCompany) {
    const subscriptionId = await repo.defaultSubscriptionId(exec, companyId);
    if (!subscriptionId) continue;
    await exec.transaction(async (tx) => {
      const taken = await repo.insertLicences(tx, subscriptionId, companyId, userIds, now);
      if (taken > 0 && !(await repo.takeLicences(tx, subscriptionId, taken))) {
        if ((await repo.subscriptionStatus(tx, subscriptionId)) !== 'active')
          fail('SUBSCRIPTION_NOT_ACTIVE', { subscriptionId });
        fail('LICENCE_LIMIT_REACHED', { subscriptionId });
      }
    });
  }
}

/**
 * A user moved to another company (a user of the Default company creating his own, document 3,
 * create company rule 1): the licences his new company does not give go back, and he arrives in
 * it (rule 7: a licence of its default subscription).
 */
export async function userChangedCompany(
  exec: Executor,
  user: { id: string; companyId: string },
  now: Date,
): Promise<void> {
  await repo.releaseLicencesOutsideCompany(exec, user.id, user.companyId);
  await assignDefaultLicence(exec, user, now);
}
