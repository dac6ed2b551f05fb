// Sample requests of the join module (join-company links, self-registration, join invitations),
// for the authorisation matrix (see ./types.ts).
import { joinCompanyLinks, joinInvitations } from '../../../src/modules/admin/join/join.tables.ts';
import { newId, randomSecret, sha256hex } from '../../../src/shared/ids.ts';
import { PASSWORD, type Ctx, type Sample } from './types.ts';

const A = '/api/svc/admin/v1.0';
const links = (companyId: string) => `${A}/companies/${companyId}/join-companies/links`;
const invitations = (companyId: string) => `${A}/companies/${companyId}/join-companies/invitations`;

/** The company of the case's placement: the path of a link names its company. */
const placedCompany = (ctx: Ctx) => ctx.world.companies[ctx.placement!.company!];

export const joinSamples: Record<string, Sample> = {
  createJoinCompanyLink: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (companyId, { n }) => ({
      method: 'POST',
      url: links(companyId),
      payload: { description: `Matrix link ${n}`, maxNumberUsers: 5 },
    }),
  },
  listJoinCompanyLinks: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (companyId) => ({ method: 'GET', url: links(companyId) }),
  },
  getJoinCompanyLink: {
    type: 'target',
    kind: 'joinLink',
    fresh: false,
    request: (id, ctx) => ({ method: 'GET', url: `${links(placedCompany(ctx))}/${id}` }),
  },
  updateJoinCompanyLink: {
    type: 'target',
    kind: 'joinLink',
    fresh: true,
    request: (id, ctx) => ({
      method: 'PUT',
      url: `${links(placedCompany(ctx))}/${id}`,
      payload: { description: `Renamed ${ctx.n}` },
    }),
  },
  deleteJoinCompanyLink: {
    type: 'target',
    kind: 'joinLink',
    fresh: true,
    request: (id, ctx) => ({ method: 'DELETE', url: `${links(placedCompany(ctx))}/${id}` }),
  },
  selfRegister: {
    type: 'public',
    request: async ({ t, world, n }) => {
      const id = newId();
      await t.db
        .insert(joinCompanyLinks)
        .values({ id, companyId: world.companies.elsewhere, description: `Matrix self-register ${n}` });
      return {
        method: 'POST',
        url: '/api/svc/enduser/v1.0/users/self-register',
        payload: {
          loginEmail: `matrix-self-${n}-${id}@example.com`,
          password: PASSWORD,
          joinCompanyLinkId: id,
          firstName: 'Self',
          lastName: 'Registered',
        },
      };
    },
  },
  createJoinInvitation: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (companyId, { n }) => ({
      method: 'POST',
      url: invitations(companyId),
      payload: { email: `matrix-invited-${n}-${newId()}@example.com` },
    }),
  },
  listJoinInvitations: {
    type: 'target',
    kind: 'company',
    fresh: false,
    request: (companyId) => ({ method: 'GET', url: invitations(companyId) }),
  },
  acceptJoinInvitation: {
    type: 'public',
    request: async ({ t, world, n }) => {
      const id = newId();
      const token = randomSecret(32);
      await t.db.insert(joinInvitations).values({
        id,
        companyId: world.companies.elsewhere,
        email: `matrix-accept-${n}-${id}@example.com`,
        tokenHash: sha256hex(token),
        // The service's clock in tests starts at a fixed date; a year after it is always ahead.
        expirationDate: new Date(t.deps.now().getTime() + 365 * 24 * 3600_000),
      });
      return {
        method: 'POST',
        url: `/api/svc/enduser/v1.0/join-companies/invitations/${id}/accept`,
        payload: { token, password: PASSWORD, firstName: 'Invited', lastName: 'Person' },
      };
    },
  },
};
