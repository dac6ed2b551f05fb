// Every operation of the service, in the order of the route table.
import type { AnyOperation } from './http/operation.ts';
import { authOperations } from './modules/authentication/auth.operations.ts';
import { oauthOperations } from './modules/authentication/oauth/oauth.operations.ts';
import { applicationOperations } from './modules/applications/applications.operations.ts';
import { userOperations } from './modules/admin/users/users.operations.ts';
import { companiesOperations } from './modules/admin/companies/companies.operations.ts';
import { joinOperations } from './modules/admin/join/join.operations.ts';
import { organisationsOperations } from './modules/admin/organisations/organisations.operations.ts';
import { sitesOperations } from './modules/admin/sites/sites.operations.ts';
import { brandingOperations } from './modules/admin/branding/branding.operations.ts';
import { customisationOperations } from './modules/admin/customisation/customisation.operations.ts';
import { backgroundOperations } from './modules/admin/background/background.operations.ts';

export const OPERATIONS: readonly AnyOperation[] = [...authOperations, ...oauthOperations, ...applicationOperations, ...userOperations, ...companiesOperations, ...joinOperations, ...organisationsOperations, ...sitesOperations, ...brandingOperations, ...customisationOperations, ...backgroundOperations];
