// Settings the database reads itself: the users' JID domain, which the trigger of migration
// jid_im_trigger uses to give every new user his jid_im. Set at every start (src/background.ts),
// written only when it changed.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import type { Config } from '../config.ts';
import { serviceSettings } from './xmpp.tables.ts';

/** The stored JID domain, or undefined before the first start wrote it. */
async function storedJidDomain(exec: Executor): Promise<string | undefined> {
  const [row] = await exec
    .select({ value: serviceSettings.value })
    .from(serviceSettings)
    .where(eq(serviceSettings.key, 'xmpp_user_domain'));
  return row?.value;
}

export async function applyServiceSettings(exec: Executor, config: Pick<Config, 'xmpp'>): Promise<void> {
  // Written only when it changed: a restart writes nothing it does not have to.
  if ((await storedJidDomain(exec)) === config.xmpp.userDomain) return;
  await exec
    .insert(serviceSettings)
    .values({ key: 'xmpp_user_domain', value: config.xmpp.userDomain })
    .onConflictDoUpdate({ target: serviceSettings.key, set: { value: sql`excluded.value` } });
}

/** The users' JID domain as the trigger reads it (users created together take it once: users' createUsersTogether). */
export async function userJidDomain(exec: Executor): Promise<string> {
  return (await storedJidDomain(exec)) ?? 'localhost';
}
