import { Type } from 'typebox';
import { DateTime, Id, Nullable, Obj, OneOf, nameSchemas } from '../../http/schemas.ts';
import { pagingQuery } from '../../http/paging.ts';

export const Application = Obj({
  id: Id(),
  appId: Id('same as id, the name clients of the original interface use'),
  name: Type.String(),
  redirectUris: Type.Array(Type.String(), {
    description:
      'absolute URLs; a built-in public application (the console) holds a path instead, accepted on the origin of the authorize request',
  }),
  ownerId: Nullable(Id('the user who registered it; null for the built-in applications of the service')),
  companyId: Id(),
  clientType: OneOf(['confidential', 'public'] as const, {
    description:
      'RFC 6749 2.1: `confidential` authenticates at the token endpoint with appId:appSecret; `public` (the console) has no secret, sends `client_id` and must use PKCE S256',
  }),
  builtIn: Type.Boolean({
    description: 'created by the service at start (the console, appId `console`): it cannot be changed or deleted here',
  }),
  isActive: Type.Boolean(),
  creationDate: DateTime(),
  lastUpdateDate: DateTime(),
});

/** Returned once, at creation and when the secret is renewed: the secrets are stored hashed. */
export const ApplicationWithSecrets = Obj({
  ...Application.properties,
  appSecret: Type.Optional(Type.String()),
  apiKey: Type.Optional(Type.String()),
});

const RedirectUris = Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 20 });

export const CreateApplicationBody = Obj({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  redirectUris: Type.Optional(RedirectUris),
});

export const UpdateApplicationBody = Obj({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  redirectUris: Type.Optional(RedirectUris),
  isActive: Type.Optional(Type.Boolean()),
});

export const AppIdParams = Type.Object({ appId: Id() });
export const APP_SORT_FIELDS = ['name', 'creationDate'] as const;
export const ListApplicationsQuery = Type.Object({ ...pagingQuery(APP_SORT_FIELDS, 'name') });

// Named components of the OpenAPI document (src/http/openapi.ts).
nameSchemas({ Application, ApplicationWithSecrets, CreateApplicationBody, UpdateApplicationBody });
