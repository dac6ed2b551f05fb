// Authenticates a request: `Authorization: Bearer <token>` (a JWT from login or an OAuth access
// token, which are the same kind of token) and loads the caller with its session in one query.
import type { FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import { fail } from '../../errors/catalogue.js';
import type { AppDeps } from '../../http/context.js';
import type { Caller, Role } from '../../authz/roles.js';
import { verifyToken } from './tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller?: Caller;
  }
}

interface CallerRow {
  id: string;
  login_email: string;
  company_id: string;
  roles: Role[];
  site_id: string | null;
  organisation_id: string | null;
  is_bp: boolean;
  bp_type: string | null;
  bp_id: string | null;
  app_id: string | null;
}

export function bearerToken(req: FastifyRequest): string | undefined {
  const h = req.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}

export async function authenticateRequest(deps: AppDeps, req: FastifyRequest): Promise<Caller> {
  const token = bearerToken(req);
  if (!token) fail(req.headers.authorization ? 'TOKEN_INVALID' : 'AUTH_REQUIRED');
  const v = await verifyToken(deps, token);
  const res = await deps.database.db.execute(sql`
    SELECT u.id, u.login_email, u.company_id, u.roles, u.site_id, c.organisation_id, c.is_bp, c.bp_type, c.bp_id, s.app_id
    FROM sessions s JOIN users u ON u.id = s.user_id JOIN companies c ON c.id = u.company_id
    WHERE s.id = ${v.sessionId} AND s.revoked_at IS NULL AND s.expires_at > ${deps.now().toISOString()} AND NOT u.is_terminated`);
  const row = (res as unknown as { rows: CallerRow[] }).rows[0];
  if (!row) fail('TOKEN_REVOKED');
  const caller: Caller = {
    userId: row.id,
    sessionId: v.sessionId,
    appId: row.app_id,
    loginEmail: row.login_email,
    companyId: row.company_id,
    roles: row.roles,
    siteId: row.site_id,
    organisationId: row.organisation_id,
    companyIsBP: row.is_bp,
    companyBpType: row.bp_type,
    companyBpId: row.bp_id,
  };
  req.caller = caller;
  return caller;
}
