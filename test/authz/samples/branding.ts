// Sample requests of the branding module (company avatar and banner), for the authorisation
// matrix (see ./types.ts).
import sharp from 'sharp';
import { makeCompany } from '../../support/factories.ts';
import { bearer, expect, type Ctx, type Req, type Sample, type TestApp } from './types.ts';

const C = '/api/svc/admin/v1.0/companies';

let png: Promise<string> | undefined;
/** A small PNG, base64: what the set operations upload. */
const image = () =>
  (png ??= sharp({ create: { width: 8, height: 8, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer()
    .then((b) => b.toString('base64')));

/** One company per test application with an avatar and a banner, set by the superadmin. */
const withImages = new WeakMap<TestApp, Promise<string>>();
function companyWithImages(ctx: Ctx): Promise<string> {
  let p = withImages.get(ctx.t);
  if (!p) {
    p = (async () => {
      const id = await makeCompany(ctx.t, { name: 'Matrix branded company' });
      for (const kind of ['avatar', 'banner']) {
        const res = await ctx.t.inject({
          method: 'POST',
          url: `${C}/${id}/${kind}`,
          headers: bearer(ctx.t.superToken),
          payload: { image: await image() },
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      return id;
    })();
    withImages.set(ctx.t, p);
  }
  return p;
}

const set =
  (kind: string) =>
  async (id: string): Promise<Req> => ({
    method: 'POST',
    url: `${C}/${id}/${kind}`,
    payload: { image: await image() },
  });
const del =
  (kind: string) =>
  (id: string): Req => ({ method: 'DELETE', url: `${C}/${id}/${kind}` });
const get =
  (kind: string) =>
  async (ctx: Ctx): Promise<Req> => ({ method: 'GET', url: `/api/${kind}/${await companyWithImages(ctx)}?size=16` });

export const brandingSamples: Record<string, Sample> = {
  setCompanyAvatar: { type: 'target', kind: 'company', fresh: false, request: set('avatar') },
  deleteCompanyAvatar: { type: 'target', kind: 'company', fresh: false, request: del('avatar') },
  setCompanyBanner: { type: 'target', kind: 'company', fresh: false, request: set('banner') },
  deleteCompanyBanner: { type: 'target', kind: 'company', fresh: false, request: del('banner') },
  getCompanyAvatar: { type: 'public', request: get('avatar'), skipDocumentCheck: 'an image, not JSON' },
  getCompanyBanner: { type: 'public', request: get('banner'), skipDocumentCheck: 'an image, not JSON' },
};
