// The modules of the service, in the order of the route table. Adding a module is adding it here.
import { installModules, type JobDeps } from './module.ts';
import type { ModuleWork } from '../background.ts';
import type { XmppPresence, XmppTransport } from '../xmpp/transport.ts';
import { authenticationModule } from './authentication/authentication.module.ts';
import { applicationsModule } from './applications/applications.module.ts';
import { usersModule } from './admin/users/users.module.ts';
import { companiesModule } from './admin/companies/companies.module.ts';
import { joinModule } from './admin/join/join.module.ts';
import { organisationsModule } from './admin/organisations/organisations.module.ts';
import { sitesModule } from './admin/sites/sites.module.ts';
import { brandingModule } from './admin/branding/branding.module.ts';
import { customisationModule } from './admin/customisation/customisation.module.ts';
import { backgroundModule } from './admin/background/background.module.ts';
import { commerceModule } from './commerce/commerce.module.ts';
import { billingModule } from './billing/billing.module.ts';
import { systemsModule } from './systems/systems.module.ts';
import { pbxModule } from './pbx/pbx.module.ts';
import { importsModule } from './imports/imports.module.ts';

// What the platform needs of particular modules at start, exported from here only.
export { defaultCompanyId } from './admin/companies/companies.seed.ts';
export { ensureBuiltInApplications } from './applications/applications.seed.ts';
export {
  ensureFirstSuperadmin,
  generatePassword,
  superadminPasswordDiffers,
  resetSuperadminPassword,
} from './admin/users/users.seed.ts';

export const MODULES = [
  authenticationModule,
  applicationsModule,
  usersModule,
  companiesModule,
  joinModule,
  organisationsModule,
  sitesModule,
  systemsModule,
  pbxModule,
  importsModule,
  brandingModule,
  customisationModule,
  backgroundModule,
  commerceModule,
  billingModule,
];

/** Every operation of the service; installing the modules fills the error catalogue, the policy table and the target kinds. */
export const OPERATIONS = installModules(MODULES);

/** Defines the jobs of every module on the queue (src/background.ts, at start). */
export async function defineModuleJobs(deps: JobDeps): Promise<void> {
  for (const m of MODULES) await m.jobs?.(deps.queue, deps);
}

/** Hands a presence sent to the service to every module that handles presences (src/background.ts). */
export async function handleModulePresence(presence: XmppPresence, deps: JobDeps): Promise<void> {
  for (const m of MODULES) await m.presence?.(presence, deps);
}

/** Runs every module's work for an opened XMPP connection (src/background.ts). */
export async function handleModuleXmppOnline(deps: JobDeps & { xmpp: XmppTransport }): Promise<void> {
  for (const m of MODULES) await m.xmppOnline?.(deps);
}

/** The modules' background work, for src/background.ts (which imports no module). */
export const MODULE_WORK: ModuleWork = {
  jobs: defineModuleJobs,
  presence: handleModulePresence,
  xmppOnline: handleModuleXmppOnline,
};
