// First-start data of the applications module: the service's built-in applications (issue 28,
// point 1: "the console is an application of the service, created at first start"). It needs the
// Default company, which the companies module's seed makes after this module's turn, so
// src/bootstrap.ts runs it once every module's seed has run. Idempotent; at every start it also
// puts back the definition below should the row have been changed in the database.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { applications } from './applications.tables.ts';

/** The console's client id (`client_id` of OAuth, `appId` of the applications routes). */
export const CONSOLE_APP_ID = 'console';
/**
 * The console's redirect path. The service's public origin is not known in advance (ports, a
 * proxy), so a public built-in client registers a path: authorize accepts it on the origin the
 * request came to (oauth.redirect.ts).
 */
export const CONSOLE_REDIRECT_PATH = '/console/oauth/callback';

const CONSOLE = {
  id: CONSOLE_APP_ID,
  name: 'Console',
  redirectUris: [CONSOLE_REDIRECT_PATH],
  // RFC 6749 2.1: a single-page application in the browser cannot keep a secret. No secret and no
  // API key (nothing to leak); PKCE S256 is required of it at authorize (oauth.model.ts).
  clientType: 'public',
  builtIn: true,
  isActive: true,
} as const;

/** Creates the console application, owned by no user, in the Default company. */
export async function ensureBuiltInApplications(db: Db, defaultCompanyId: string): Promise<void> {
  const wanted = {
    ...CONSOLE,
    redirectUris: [...CONSOLE.redirectUris],
    ownerId: null,
    companyId: defaultCompanyId,
    secretHash: null,
    secretSealed: null,
    apiKeyHash: null,
  };
  // Read first: a restart that finds the console as defined writes nothing (an upsert locks the
  // row it meets and commits even when it changes nothing: a tenth of a second of an embedded restart).
  const [row] = await db.select().from(applications).where(eq(applications.id, CONSOLE.id));
  const found: Record<string, unknown> | undefined = row;
  if (found && Object.entries(wanted).every(([k, v]) => JSON.stringify(found[k]) === JSON.stringify(v))) return;
  const ex = sql`excluded`;
  await db
    .insert(applications)
    .values(wanted)
    .onConflictDoUpdate({
      target: applications.id,
      set: {
        name: sql`${ex}.name`,
        redirectUris: sql`${ex}.redirect_uris`,
        clientType: sql`${ex}.client_type`,
        builtIn: sql`${ex}.built_in`,
        isActive: sql`${ex}.is_active`,
        ownerId: null,
        companyId: sql`${ex}.company_id`,
        secretHash: null,
        secretSealed: null,
        apiKeyHash: null,
        lastUpdateDate: sql`now()`,
      },
    });
}
