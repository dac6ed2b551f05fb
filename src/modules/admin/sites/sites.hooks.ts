// The hooks of the sites module's face (sites.api.ts; src/shared/hooks.ts): systems read sites,
// so sites cannot import systems; systems provides how many systems a site links.
import type { Executor } from '../../../db/client.ts';
import { provided } from '../../../shared/hooks.ts';

/** Document 3, delete site: how many systems are linked to the site (its deletion is refused while any is). */
export const systemsOfSite = provided<(exec: Executor, siteId: string) => Promise<number>>('the systems of a site');
