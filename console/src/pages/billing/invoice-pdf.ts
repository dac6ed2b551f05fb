// An invoice's PDF (document 1, download an invoice file: `{Invoice: string}`, the PDF in base64)
// and the invoicing files (CSV), both fetched with the bearer token, which a plain link cannot send.
import { api } from '../../api/client.ts';
import { unwrap } from '../../api/errors.ts';
import { download } from '../../lib/download.ts';

/** The invoice's PDF as a Blob, from the documented JSON answer. */
export async function invoicePdf(companyId: string, fileId: string): Promise<Blob> {
  const r = await unwrap(
    api.GET('/api/svc/subscription/v1.0/companies/{companyId}/invoices/files/{fileId}', {
      params: { path: { companyId, fileId } },
    }),
  );
  const bytes = Uint8Array.from(atob(r.Invoice), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: 'application/pdf' });
}

/** Hands the browser the PDF as a file named after the invoice. */
export async function downloadInvoicePdf(companyId: string, fileId: string, invoiceNumber: string): Promise<void> {
  const href = URL.createObjectURL(await invoicePdf(companyId, fileId));
  const a = document.createElement('a');
  a.href = href;
  a.download = `invoice-${invoiceNumber}.pdf`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** An invoicing file (CSV) by its path in the list (route table: downloadInvoicingFile, several segments). */
export const downloadInvoicingFile = (path: string, fileName: string) =>
  download(
    `/api/svc/invoicing/v1.0/invoices/${path.split('/').map(encodeURIComponent).join('/')}`,
    fileName,
    'text/csv',
  );
