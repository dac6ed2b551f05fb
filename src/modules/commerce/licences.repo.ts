// SQL of licences (document 1, licence counters; route table, assignUserLicence): a licence row
// and the subscription's number_assigned_users move together. The count rises in the guarded
// UPDATE below, in the transaction of the row's insert; it falls in the trigger of migration
// licence_release_trigger, whatever removes rows (unassignment, deleted user, deleted subscription).
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/raw.ts';
import { textArrayLiteral } from '../../db/literal.ts';
import { licences, offers, subscriptions } from './commerce.tables.ts';
import { bpIdSql, bpTypeSql } from '../admin/companies/companies.api.ts';

export type LicenceRow = typeof licences.$inferSelect;

/** What the assignment rules read: the subscription's company kind and the user's company's BP. */
export interface AssignmentFacts {
  subscriptionCompanyId: string;
  subscriptionCompanyBpType: string | null;
  userCompanyBpId: string | null;
}

export async function assignmentFacts(
  exec: Executor,
  subscriptionId: string,
  userCompanyId: string,
): Promise<AssignmentFacts | undefined> {
  const r =
    await exec.execute(sql`SELECT s.company_id AS "subscriptionCompanyId", ${bpTypeSql(sql`s.company_id`)} AS "subscriptionCompanyBpType",
      ${bpIdSql(sql`${userCompanyId}`)} AS "userCompanyBpId"
    FROM subscriptions s WHERE s.id = ${subscriptionId}`);
  return rowsOf<AssignmentFacts>(r)[0];
}

/** The licence row, or undefined when the user already holds one of this subscription. */
export async function insertLicence(
  exec: Executor,
  l: { subscriptionId: string; userId: string; userCompanyId: string; assignedAt: Date },
): Promise<LicenceRow | undefined> {
  const [row] = await exec.insert(licences).values(l).onConflictDoNothing().returning();
  return row;
}

/**
 * One more licence taken, if one is free and the subscription is active: a single conditional
 * UPDATE, so concurrent assignments queue on the row and each re-reads the count it raises.
 * False when nothing was taken (the caller rolls its row back).
 */
export async function takeLicence(exec: Executor, subscriptionId: string): Promise<boolean> {
  const rows = await exec
    .update(subscriptions)
    .set({ numberAssignedUsers: sql`${subscriptions.numberAssignedUsers} + 1` })
    .where(
      and(
        eq(subscriptions.id, subscriptionId),
        eq(subscriptions.status, 'active'),
        sql`(${subscriptions.maxNumberUsers} IS NULL OR ${subscriptions.numberAssignedUsers} < ${subscriptions.maxNumberUsers})`,
      ),
    )
    .returning({ id: subscriptions.id });
  return rows.length > 0;
}

/** Licences of the subscription for these users of one company (those who hold one already keep it); the number made. */
export async function insertLicences(
  exec: Executor,
  subscriptionId: string,
  companyId: string,
  userIds: string[],
  assignedAt: Date,
): Promise<number> {
  // Counted by the database: one row back, not one per licence (an import's batch makes thousands).
  const result = await exec.execute(sql`WITH made AS (
    INSERT INTO licences (subscription_id, user_id, user_company_id, assigned_at)
    SELECT ${subscriptionId}, u, ${companyId}, ${assignedAt} FROM unnest(${textArrayLiteral(userIds)}::text[]) AS u
    ON CONFLICT DO NOTHING RETURNING 1) SELECT count(*)::int AS n FROM made`);
  return rowsOf<{ n: number }>(result)[0]?.n ?? 0;
}

/** `n` more licences taken at once, if they are free and the subscription is active (as takeLicence). */
export async function takeLicences(exec: Executor, subscriptionId: string, n: number): Promise<boolean> {
  const rows = await exec
    .update(subscriptions)
    .set({ numberAssignedUsers: sql`${subscriptions.numberAssignedUsers} + ${n}` })
    .where(
      and(
        eq(subscriptions.id, subscriptionId),
        eq(subscriptions.status, 'active'),
        sql`(${subscriptions.maxNumberUsers} IS NULL OR ${subscriptions.numberAssignedUsers} + ${n} <= ${subscriptions.maxNumberUsers})`,
      ),
    )
    .returning({ id: subscriptions.id });
  return rows.length > 0;
}

export async function subscriptionStatus(exec: Executor, subscriptionId: string): Promise<string | undefined> {
  const [row] = await exec
    .select({ status: subscriptions.status })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  return row?.status;
}

export async function findLicence(
  exec: Executor,
  subscriptionId: string,
  userId: string,
): Promise<LicenceRow | undefined> {
  const [row] = await exec
    .select()
    .from(licences)
    .where(and(eq(licences.subscriptionId, subscriptionId), eq(licences.userId, userId)));
  return row;
}

/** Removes the row (the trigger lowers the count); false when there was none. */
export async function deleteLicence(exec: Executor, subscriptionId: string, userId: string): Promise<boolean> {
  const rows = await exec
    .delete(licences)
    .where(and(eq(licences.subscriptionId, subscriptionId), eq(licences.userId, userId)))
    .returning({ u: licences.userId });
  return rows.length > 0;
}

/** The company's default subscription (document 1: every company has one), if it has one yet. */
export async function defaultSubscriptionId(exec: Executor, companyId: string): Promise<string | undefined> {
  const [row] = await exec
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.companyId, companyId), eq(subscriptions.isDefault, true)));
  return row?.id;
}

/**
 * The licences a user may no longer hold once in `companyId`: those of subscriptions that are
 * neither of that company nor of the BP IR company it is an End Customer of (the trigger lowers
 * their counts).
 */
export async function releaseLicencesOutsideCompany(exec: Executor, userId: string, companyId: string): Promise<void> {
  await exec.execute(sql`DELETE FROM licences l USING subscriptions s
    WHERE l.user_id = ${userId} AND s.id = l.subscription_id
      AND s.company_id <> ${companyId}
      AND NOT COALESCE(${bpTypeSql(sql`s.company_id`)} = 'IR' AND s.company_id = ${bpIdSql(sql`${companyId}`)}, FALSE)`);
  await exec.execute(sql`UPDATE licences SET user_company_id = ${companyId} WHERE user_id = ${userId}`);
}

/**
 * The company's subscriptions as the bulk import's check shows them (document 3, Check report:
 * profiles `{name, valid, assignedBefore, assignedAfter, max}`): the offer's name, whether it gives
 * licences (active), the licences taken and the limit; terminated ones left out.
 */
export async function companyProfiles(exec: Executor, companyId: string) {
  return exec
    .select({
      subscriptionId: subscriptions.id,
      name: offers.name,
      status: subscriptions.status,
      isDefault: subscriptions.isDefault,
      assigned: subscriptions.numberAssignedUsers,
      max: subscriptions.maxNumberUsers,
    })
    .from(subscriptions)
    .innerJoin(offers, eq(offers.id, subscriptions.offerId))
    .where(and(eq(subscriptions.companyId, companyId), sql`${subscriptions.status} <> 'terminated'`))
    .orderBy(offers.name, subscriptions.id);
}
