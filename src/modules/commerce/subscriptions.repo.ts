// SQL of subscriptions: for now the default subscription every company holds (document 3, create
// company rule 7; document 1, company kinds: "every company always has a subscription to the
// default (free) offer").
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { newId } from '../../shared/ids.ts';
import { subscriptions } from './commerce.tables.ts';

export async function insertDefaultSubscription(exec: Executor, companyId: string, offerId: string, now: Date): Promise<void> {
  await exec.insert(subscriptions).values({ id: newId(), companyId, offerId, status: 'active', isDefault: true, creationDate: now }).onConflictDoNothing();
}

/** Companies without a default subscription get one (when the default offer is created: companies made before it). */
export async function backfillDefaultSubscriptions(exec: Executor, offerId: string): Promise<void> {
  await exec.execute(sql`INSERT INTO subscriptions (id, company_id, offer_id, status, is_default)
    SELECT substr(md5(random()::text || c.id), 1, 24), c.id, ${offerId}, 'active', TRUE FROM companies c
    WHERE NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.company_id = c.id AND s.is_default)
    ON CONFLICT DO NOTHING`);
}
