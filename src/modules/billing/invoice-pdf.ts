// The PDF of an invoice (docs/billing.md, Invoices): made with pdfkit, its text set in the embedded
// Unicode fonts (src/pdf/fonts.ts) so that BP and customer names in any script render and can be
// searched. It shows the invoice number and dates, the BP's name and address, the period, every
// item with its calculation and tax, and the totals.
import { writeText } from '../../pdf/fonts.ts';
import { newPdf } from '../../pdf/document.ts';

export interface InvoicePdfItem {
  subscriptionName: string;
  chargeName: string;
  serviceStartDate: string;
  serviceEndDate: string;
  quantity: number;
  chargeAmount: string;
  taxRate: string;
  taxAmount: string;
  calculation: string;
}

export interface InvoicePdfData {
  invoiceNumber: string;
  invoiceDate: string;
  dueDate: string;
  billingPeriod: string;
  currency: string;
  accountNumber: string;
  bp: {
    name: string;
    street: string | null;
    postalCode: string | null;
    city: string | null;
    state: string | null;
    country: string | null;
  };
  items: InvoicePdfItem[];
  amountWithoutTax: string;
  taxAmount: string;
  amount: string;
}

/** A tax rate as a percentage: '0.2' -> '20 %', '0.081' -> '8.1 %'. */
export function percent(rate: string): string {
  const [i = '0', f = ''] = rate.split('.');
  const scaled = BigInt(i + f.padEnd(2, '0').slice(0, 2)).toString();
  const rest = f.slice(2).replace(/0+$/, '');
  return `${rest ? `${scaled}.${rest}` : scaled} %`;
}

export async function renderInvoicePdf(d: InvoicePdfData, now: Date): Promise<Buffer> {
  const pdf = await newPdf(`Invoice ${d.invoiceNumber}`, now);
  const doc = pdf.doc;
  const line = (label: string, value: string) =>
    writeText(writeText(doc, `${label}: `, 'bold', { continued: true }), value, 'regular');

  writeText(doc.fontSize(18), `Invoice ${d.invoiceNumber}`, 'bold');
  doc.moveDown(0.5).fontSize(10);
  writeText(doc, d.bp.name, 'bold');
  const address = [
    d.bp.street,
    [d.bp.postalCode, d.bp.city].filter(Boolean).join(' '),
    d.bp.state,
    d.bp.country,
  ].filter((s) => s && s.trim() !== '');
  for (const a of address) writeText(doc, String(a), 'regular');
  doc.moveDown(0.5);
  line('Account', d.accountNumber);
  line('Billing period', d.billingPeriod);
  line('Invoice date', d.invoiceDate);
  line('Due date', d.dueDate);
  line('Currency', d.currency);

  writeText(doc.moveDown(0.8).fontSize(13), 'Items', 'bold');
  doc.moveDown(0.3).fontSize(9);
  // An invoice may hold thousands of items: an item line in plain ASCII is set in pdfkit's built-in
  // Helvetica (metrics only, no shaping) and, when it fits the width, without word wrapping, the
  // line and page advanced here: several times faster than wrapped text in an embedded font. A
  // longer ASCII line wraps; any other line (a name in another script) goes through the Unicode
  // fonts (writeText).
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  const itemLine = (text: string) => {
    if (!/^[\x20-\x7E]*$/.test(text)) return void writeText(doc, text, 'regular');
    doc.font('Helvetica');
    if (doc.widthOfString(text) > width) return void doc.text(text, left, doc.y, { width });
    const height = doc.currentLineHeight(true);
    if (doc.y + height > doc.page.maxY()) doc.addPage();
    doc.text(text, left, doc.y, { lineBreak: false });
    doc.y += height;
  };
  d.items.forEach((it, i) => {
    itemLine(
      `${i + 1}. ${it.subscriptionName} (${it.serviceStartDate} to ${it.serviceEndDate}), quantity ${it.quantity}`,
    );
    itemLine(
      `   ${it.chargeName}: ${it.calculation} = ${it.chargeAmount} ${d.currency}; tax ${percent(it.taxRate)} = ${it.taxAmount} ${d.currency}`,
    );
  });

  doc.x = doc.page.margins.left;
  writeText(doc.moveDown(0.8).fontSize(13), 'Totals', 'bold');
  doc.moveDown(0.3).fontSize(10);
  line('Amount without tax', `${d.amountWithoutTax} ${d.currency}`);
  line('Tax', `${d.taxAmount} ${d.currency}`);
  line('Total', `${d.amount} ${d.currency}`);
  return pdf.finish();
}
