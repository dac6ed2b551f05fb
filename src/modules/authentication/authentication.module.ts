// The authentication module: Authentication (document 1, Authentication; OAuth 2.0).
import { defineModule } from '../module.ts';
import { authOperations } from './auth.operations.ts';
import { oauthOperations } from './oauth/oauth.operations.ts';
import { authenticationPolicy } from './authentication.policy.ts';
import { authenticationErrors } from './authentication.errors.ts';
import { endOtherSessions } from './authentication.service.ts';
import { passwordChanged } from '../admin/users/users.api.ts';

// Installed with the module: a changed password ends the account's other sessions (users' hook).
passwordChanged.register(endOtherSessions);

export const authenticationModule = defineModule({
  name: 'authentication',
  operations: [...authOperations, ...oauthOperations],
  policy: authenticationPolicy,
  errors: authenticationErrors,
});
