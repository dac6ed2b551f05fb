// The service description of a company (document 3): a PDF made with pdfkit describing its
// identity, its BP and organisation, its sites, its subscriptions with their offers and its
// customisation values. Text is set in embedded Unicode fonts (src/pdf/fonts.ts), so names in any
// of the scripts those fonts cover render and can be searched and copied.
import type { Executor } from '../../../db/client.ts';
import { COMPANY_MANAGED_KEYS, companyValues } from './customisation.keys.ts';
import * as repo from './customisation.repo.ts';
import { companySubscriptions } from '../companies/companies.api.ts';
import { writeText } from '../../../pdf/fonts.ts';
import { newPdf } from '../../../pdf/document.ts';
import type { TargetRow } from '../../../authz/targets.ts';
import { scalarText } from '../../../shared/json-values.ts';

const day = (d: unknown) =>
  d instanceof Date
    ? d.toISOString().slice(0, 10)
    : typeof d === 'string' && d
      ? new Date(d).toISOString().slice(0, 10)
      : '-';

export interface DescriptionData {
  company: Record<string, unknown>;
  bpName: string | null;
  organisationName: string | null;
  templateName: string | null;
  sites: { name: string; status: string; creationDate: Date }[];
  subscriptions: {
    offerName: string;
    profileName: string | null;
    status: string;
    isDefault: boolean;
    maxNumberUsers: number | null;
    creationDate: Date;
  }[];
}

export async function loadDescription(db: Executor, company: TargetRow<'company'>): Promise<DescriptionData> {
  const bpName = company.bpId ? await repo.companyName(db, company.bpId) : undefined;
  const organisationName = company.organisationId ? await repo.organisationName(db, company.organisationId) : undefined;
  const templateName = company.selectedAppCustomisationTemplate
    ? await repo.templateName(db, company.selectedAppCustomisationTemplate)
    : undefined;
  const siteRows = await repo.companySites(db, company.id);
  const subRows = await companySubscriptions(db, company.id);
  return {
    company,
    bpName: bpName ?? null,
    organisationName: organisationName ?? null,
    templateName: templateName ?? null,
    sites: siteRows,
    subscriptions: subRows,
  };
}

export async function renderDescription(d: DescriptionData, now: Date): Promise<Buffer> {
  const c = d.company;
  const pdf = await newPdf(`Service description - ${String(c.name)}`, now);
  const doc = pdf.doc;
  const heading = (text: string) => writeText(doc.moveDown(0.8).fontSize(13), text, 'bold').moveDown(0.3).fontSize(10);
  const show = (value: unknown) => (value === null || value === undefined || value === '' ? '-' : scalarText(value));
  const line = (label: string, value: unknown) =>
    writeText(writeText(doc, `${label}: `, 'bold', { continued: true }), show(value), 'regular');

  writeText(doc.fontSize(18), 'Service description', 'bold');
  writeText(doc.fontSize(10), `Issued ${now.toISOString().slice(0, 16).replace('T', ' ')} UTC`, 'regular');

  heading('Company');
  line('Name', c.name);
  line('Identifier', c.id);
  line('Country', c.country);
  line('Status', c.status);
  line('Created', day(c.creationDate));
  line('Offer type', c.offerType);
  line('Business partner', c.isBP ? `yes (${show(c.bpType)})` : 'no');

  heading('Business partner and organisation');
  line('BP company', d.bpName);
  line('Organisation', d.organisationName);

  heading(`Sites (${d.sites.length})`);
  if (d.sites.length === 0) writeText(doc, 'No site.', 'regular');
  for (const s of d.sites) writeText(doc, `- ${s.name} (${s.status}, created ${day(s.creationDate)})`, 'regular');

  heading(`Subscriptions (${d.subscriptions.length})`);
  if (d.subscriptions.length === 0) writeText(doc, 'No subscription.', 'regular');
  for (const s of d.subscriptions) {
    const parts = [
      s.status,
      s.isDefault ? 'default' : null,
      s.profileName ? `profile ${s.profileName}` : null,
      s.maxNumberUsers != null ? `up to ${s.maxNumberUsers} users` : null,
      `since ${day(s.creationDate)}`,
    ];
    writeText(doc, `- ${s.offerName}: ${parts.filter(Boolean).join(', ')}`, 'regular');
  }

  heading('Customisation');
  line('Template applied', d.templateName ?? c.selectedAppCustomisationTemplate ?? 'none (default values)');
  for (const [k, v] of Object.entries(companyValues(c.customisations))) line(k, v);
  for (const k of COMPANY_MANAGED_KEYS) line(k, c[k]);

  return pdf.finish();
}
