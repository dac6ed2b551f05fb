// Settings the database reads itself: the users' JID domain, which the trigger of migration
// jid_im_trigger uses to give every new user his jid_im. Written at every start (main.ts).
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import type { Config } from '../config.ts';
import { serviceSettings } from './xmpp.tables.ts';

export async function applyServiceSettings(exec: Executor, config: Pick<Config, 'xmpp'>): Promise<void> {
  await exec
    .insert(serviceSettings)
    .values({ key: 'xmpp_user_domain', value: config.xmpp.userDomain })
    .onConflictDoUpdate({ target: serviceSettings.key, set: { value: sql`excluded.value` } });
}
