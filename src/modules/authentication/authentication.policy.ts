// Policy of the authentication module (route table, Authentication; doc 1, Authentication).
import { anyCaller, publicOp, type PolicyEntry } from '../../authz/grant.ts';

export const authenticationPolicy: Record<string, PolicyEntry> = {
  login: publicOp('credentials are the request itself (Basic)'),
  renewToken: anyCaller('any valid token may be renewed'),
  logout: anyCaller('any valid token may be revoked by its holder'),
  validateToken: anyCaller('tells whether the presented token is valid'),
  oauthAuthorize: publicOp('the user signs in on the request (Basic or Bearer)'),
  oauthToken: publicOp('the client authenticates with its appId and appSecret'),
};
