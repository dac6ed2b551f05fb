// Applications (route table, a supporting resource): the clients of OAuth and of the APIKey
// header. appSecret and apiKey are shown once; the database keeps their SHA-256 (they are
// 256-bit random values, so a slow hash adds nothing) and a sealed copy of the secret for the
// login application proof (docs/decisions.md).
import type { SQL } from 'drizzle-orm';
import type { Static } from 'typebox';
import type { Caller } from '../../authz/roles.ts';
import type { Executor } from '../../db/client.ts';
import { fail } from '../../errors/catalogue.ts';
import { listResult, type Paging } from '../../http/paging.ts';
import { seal } from '../../shared/keys.ts';
import { newId, randomSecret, sha256hex } from '../../shared/ids.ts';
import * as repo from './applications.repo.ts';
import type { APP_SORT_FIELDS, CreateApplicationBody, UpdateApplicationBody } from './applications.schemas.ts';

export type { ApplicationRow } from './applications.repo.ts';

export function toApiApplication(a: repo.ApplicationRow) {
  return {
    id: a.id,
    appId: a.id,
    name: a.name,
    redirectUris: a.redirectUris,
    ownerId: a.ownerId,
    companyId: a.companyId,
    clientType: a.clientType,
    builtIn: a.builtIn,
    isActive: a.isActive,
    creationDate: a.creationDate,
    lastUpdateDate: a.lastUpdateDate,
  };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function assertRedirectUris(uris: readonly string[]): void {
  for (const u of uris) {
    let url: URL;
    try {
      url = new URL(u);
    } catch {
      fail('INVALID_REDIRECT_URI', { redirectUri: u });
    }
    const ok = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
    if (!ok || url.hash) fail('INVALID_REDIRECT_URI', { redirectUri: u });
  }
}

function newSecrets(sealKey: Buffer) {
  const appSecret = randomSecret();
  const apiKey = randomSecret();
  return {
    appSecret,
    apiKey,
    secretHash: sha256hex(appSecret),
    secretSealed: seal(sealKey, appSecret),
    apiKeyHash: sha256hex(apiKey),
  };
}

export async function createApplication(
  exec: Executor,
  caller: Caller,
  sealKey: Buffer,
  body: Static<typeof CreateApplicationBody>,
  now: Date,
) {
  const redirectUris = body.redirectUris ?? [];
  assertRedirectUris(redirectUris);
  const s = newSecrets(sealKey);
  const row = await repo.insertApplication(exec, {
    id: newId(),
    name: body.name,
    ownerId: caller.userId,
    companyId: caller.companyId,
    redirectUris,
    secretHash: s.secretHash,
    secretSealed: s.secretSealed,
    apiKeyHash: s.apiKeyHash,
    creationDate: now,
    lastUpdateDate: now,
  });
  return { ...toApiApplication(row), appSecret: s.appSecret, apiKey: s.apiKey };
}

/** The built-in applications (the console) are the service's: no route changes or deletes them. */
function assertNotBuiltIn(app: repo.ApplicationRow): void {
  if (app.builtIn) fail('APPLICATION_BUILT_IN', { appId: app.id });
}

export async function updateApplication(
  exec: Executor,
  app: repo.ApplicationRow,
  body: Static<typeof UpdateApplicationBody>,
  now: Date,
) {
  assertNotBuiltIn(app);
  if (body.redirectUris) assertRedirectUris(body.redirectUris);
  return toApiApplication(await repo.updateApplicationRow(exec, app.id, { ...body, lastUpdateDate: now }));
}

export async function renewSecret(exec: Executor, app: repo.ApplicationRow, sealKey: Buffer, now: Date) {
  assertNotBuiltIn(app);
  const s = newSecrets(sealKey);
  const row = await repo.updateApplicationRow(exec, app.id, {
    secretHash: s.secretHash,
    secretSealed: s.secretSealed,
    lastUpdateDate: now,
  });
  return { ...toApiApplication(row), appSecret: s.appSecret };
}

export async function deleteApplication(exec: Executor, app: repo.ApplicationRow) {
  assertNotBuiltIn(app);
  await repo.deleteApplicationRow(exec, app.id);
}

export async function listApplications(
  exec: Executor,
  scope: SQL | undefined,
  p: Paging<(typeof APP_SORT_FIELDS)[number]>,
) {
  const { rows, total } = await repo.listApplicationRows(exec, scope, p);
  return listResult(rows.map(toApiApplication), total, p);
}

/** The APIKey header: when present it must be the key of an active application. */
export async function apiKeyIsActive(exec: Executor, apiKey: string): Promise<boolean> {
  return repo.activeApplicationWithKeyHash(exec, sha256hex(apiKey));
}

/** The application of that id when it is active (an inactive one signs nothing in), for the authentication module. */
export function findActiveApplication(exec: Executor, id: string): Promise<repo.ApplicationRow | undefined> {
  return repo.findActiveApplicationRow(exec, id);
}
