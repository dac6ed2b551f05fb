// Every operation of the service, in the order of the route table.
import type { AnyOperation } from './http/operation.js';
import { authOperations } from './modules/authentication/auth.operations.js';
import { oauthOperations } from './modules/authentication/oauth/oauth.operations.js';
import { applicationOperations } from './modules/applications/applications.operations.js';
import { userOperations } from './modules/admin/users/users.operations.js';

export const OPERATIONS: readonly AnyOperation[] = [...authOperations, ...oauthOperations, ...applicationOperations, ...userOperations];
