// Every operation of the service, in the order of the route table.
import type { AnyOperation } from './http/operation.js';
import { authOperations } from './modules/authentication/auth.operations.js';
import { oauthOperations } from './modules/authentication/oauth/oauth.operations.js';
import { applicationOperations } from './modules/applications/applications.operations.js';
import { userOperations } from './modules/admin/users/users.operations.js';
import { companiesOperations } from './modules/admin/companies/companies.operations.js';
import { joinOperations } from './modules/admin/join/join.operations.js';
import { organisationsOperations } from './modules/admin/organisations/organisations.operations.js';
import { sitesOperations } from './modules/admin/sites/sites.operations.js';
import { brandingOperations } from './modules/admin/branding/branding.operations.js';
import { customisationOperations } from './modules/admin/customisation/customisation.operations.js';

export const OPERATIONS: readonly AnyOperation[] = [...authOperations, ...oauthOperations, ...applicationOperations, ...userOperations, ...companiesOperations, ...joinOperations, ...organisationsOperations, ...sitesOperations, ...brandingOperations, ...customisationOperations];
