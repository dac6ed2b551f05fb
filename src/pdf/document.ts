// An A4 PDF document with the Unicode fonts registered, and its bytes once it ends. pdfkit (and
// its fonts) load on the first document, not at start.
import { registerUnicodeFonts } from './fonts.ts';

export interface PdfDocument {
  doc: PDFKit.PDFDocument;
  /** Ends the document and gives its bytes. */
  finish(): Promise<Buffer>;
}

export async function newPdf(title: string, now: Date): Promise<PdfDocument> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: title, Producer: 'svc-admin', CreationDate: now },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (b: Buffer) => chunks.push(b));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  await registerUnicodeFonts(doc);
  return {
    doc,
    finish() {
      doc.end();
      return done;
    },
  };
}
