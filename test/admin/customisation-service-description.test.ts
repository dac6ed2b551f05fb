// Document 3, getServiceDescription: the service description PDF of a company (made with pdfkit,
// read back here with poppler's pdftotext).
import { after as afterAll, before as beforeAll, describe, it } from 'node:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '../support/expect.ts';
import { createTestApp, bearer, type TestApp } from '../support/harness.ts';
import { makeCompany, makeSite, makeUser } from '../support/factories.ts';
import { companies } from '../../src/modules/admin/companies/companies.tables.ts';
import { offers, subscriptions } from '../../src/modules/commerce/commerce.tables.ts';
import { organisations } from '../../src/modules/admin/organisations/organisations.tables.ts';
import { sites } from '../../src/modules/admin/sites/sites.tables.ts';
import { eq } from 'drizzle-orm';
import { BUILT_IN_TEMPLATES } from '../../src/modules/admin/customisation/customisation.keys.ts';
import { newId } from '../../src/shared/ids.ts';

const A = '/api/svc/admin/v1.0';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const describeReq = (token: string, id: string) =>
  t.inject({ method: 'GET', url: `${A}/companies/${id}/service-description`, headers: bearer(token) });

function writePdf(pdf: Buffer): string {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-pdf-')), 'd.pdf');
  writeFileSync(file, pdf);
  return file;
}

function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', writePdf(pdf), '-'], { encoding: 'utf8' });
}

/** Renders the first page to a PNG with poppler's pdftoppm and reads it back with sharp. */
async function renderFirstPage(pdf: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pdf-'));
  const file = join(dir, 'd.pdf');
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', '-singlefile', file, join(dir, 'page')]);
  const png = readFileSync(join(dir, 'page.png'));
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const inked = data.reduce((n, v) => n + (v < 128 ? 1 : 0), 0);
  return { info, inked };
}

describe('doc 3, get the service description PDF of a company', () => {
  it('issue 3, point 7: the PDF renders to an image (poppler) holding ink, and its text holds the company name', async () => {
    const id = await makeCompany(t, { name: 'Rendered Company Ltd' });
    const res = await describeReq(t.superToken, id);
    expect(res.statusCode).toBe(200);
    const page = await renderFirstPage(res.rawPayload);
    expect(page.info.width).toBeGreaterThan(300);
    expect(page.info.height).toBeGreaterThan(300);
    expect(page.inked).toBeGreaterThan(500);
    expect(pdfText(res.rawPayload)).toContain('Rendered Company Ltd');
  });

  it('doc 3, service description, "PDF with Content-Type application/pdf": it describes the company, its BP, organisation, sites, subscriptions and customisation', async () => {
    const org = newId();
    await t.db.insert(organisations).values({ id: org, name: 'Blue Organisation' });
    const bp = await makeCompany(t, { name: 'Partner Telecom', isBP: true, bpType: 'DR' });
    const id = await makeCompany(t, { name: 'Acme Widgets', bpId: bp, organisationId: org });
    await makeSite(t, id);
    const offerId = newId();
    await t.db.insert(offers).values({ id: offerId, name: 'Business Voice Offer', profileName: 'Business' });
    await t.db
      .insert(subscriptions)
      .values({ id: newId(), companyId: id, offerId, status: 'active', maxNumberUsers: 25 });
    await t.db
      .update(companies)
      .set({ selectedAppCustomisationTemplate: BUILT_IN_TEMPLATES[0].id })
      .where(eq(companies.id, id));
    const res = await describeReq(t.superToken, id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(res.rawPayload);
    for (const s of [
      'Service description',
      'Acme Widgets',
      id,
      'FRA',
      'Partner Telecom',
      'Blue Organisation',
      'Site ',
      'Business Voice Offer',
      'up to 25 users',
      'fileSharingCustomisation',
      'useDialOutCustomisation',
      'Template applied: Full',
    ]) {
      expect(text, s).toContain(s);
    }
  });

  it('issue 8, point 8: names in Chinese, Arabic, Cyrillic and Greek render (embedded Unicode fonts) and are found by pdftotext', async () => {
    const names = {
      chinese: '北京云通信有限公司',
      arabic: 'شركة النور للاتصالات',
      cyrillic: 'Компания Связь',
      greek: 'Εταιρεία Επικοινωνιών',
    };
    const id = await makeCompany(t, { name: `${names.chinese} ${names.cyrillic}` });
    const org = newId();
    await t.db.insert(organisations).values({ id: org, name: names.greek });
    const bp = await makeCompany(t, { name: names.arabic, isBP: true, bpType: 'DR' });
    await t.db.update(companies).set({ organisationId: org, bpId: bp }).where(eq(companies.id, id));
    // Digits in a right-to-left name keep their order.
    await t.db.insert(sites).values({ id: newId(), name: 'فرع 2024', companyId: id });
    const res = await describeReq(t.superToken, id);
    expect(res.statusCode).toBe(200);
    const text = pdfText(res.rawPayload).normalize('NFC');
    for (const [script, name] of Object.entries(names)) expect(text, script).toContain(name);
    expect(text).toContain('2024');
    expect(text).not.toContain('4202');
    // Embedded fonts, not the standard 14 (whose WinAnsi encoding has none of these letters).
    const fonts = execFileSync('pdffonts', [writePdf(res.rawPayload)], { encoding: 'utf8' });
    expect(fonts).toMatch(/NotoSans/);
    expect(fonts).toMatch(/NotoNaskhArabic/);
    expect(fonts).toMatch(/NotoSansHans/);
    expect(fonts).not.toMatch(/Helvetica/);
  });

  it('roles: company_admin of the company and bp_finance of its BP get it; an admin of another company gets 404', async () => {
    const bp = await makeCompany(t, { isBP: true, bpType: 'DR' });
    const id = await makeCompany(t, { name: 'Own Company', bpId: bp });
    const own = await makeUser(t, id, ['company_admin']);
    const finance = await makeUser(t, bp, ['bp_finance']);
    expect((await describeReq(own.token, id)).statusCode).toBe(200);
    expect((await describeReq(finance.token, id)).statusCode).toBe(200);
    const stranger = await makeUser(t, await makeCompany(t), ['company_admin']);
    const res = await describeReq(stranger.token, id);
    expect(res.statusCode).toBe(404);
    expect(res.json().errorDetailsCode).toBe(404000);
    const plain = await makeUser(t, id);
    expect((await describeReq(plain.token, id)).statusCode).toBe(404);
  });

  it('an unknown company gives 404', async () => {
    expect((await describeReq(t.superToken, newId())).statusCode).toBe(404);
  });
});
