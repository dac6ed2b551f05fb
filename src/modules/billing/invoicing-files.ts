// The CSV files of the invoicing module (document 1; docs/billing.md, Files), made with
// csv-stringify (RFC 4180, a header line). Paths are `<companyId>/<billingPeriod>/<invoiceType>/<fileName>`.
import { stringify } from 'csv-stringify/sync';
import type { CallRecord } from '../../ports/voice/voice.port.ts';
import type { ConferenceRecord } from '../../ports/providers/providers.port.ts';

export const INVOICE_TYPES = ['services', 'conference', 'voice'] as const;
export const FILE_TYPES = ['INV', 'CDR'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
export type FileType = (typeof FILE_TYPES)[number];

export const filePath = (companyId: string, period: string, type: InvoiceType, fileName: string) =>
  `${companyId}/${period}/${type}/${fileName}`;
export const fileNameOf = (fileType: FileType, type: InvoiceType, period: string) =>
  `${fileType}-${type}-${period}.csv`;

/** One line of an INV file: an invoice item with the invoice it belongs to. */
export interface InvLine {
  invoiceNumber: string;
  invoiceDate: string;
  billingPeriod: string;
  accountNumber: string;
  customerCompanyId: string | null;
  subscriptionId: string;
  subscriptionName: string;
  chargeId: string;
  chargeName: string;
  chargeType: string;
  productName: string;
  unitOfMeasure: string;
  serviceStartDate: string;
  serviceEndDate: string;
  quantity: number;
  unitPrice: string;
  chargeAmount: string;
  taxRate: string;
  taxAmount: string;
  currency: string;
  calculation: string;
}

export const INV_COLUMNS: (keyof InvLine)[] = [
  'invoiceNumber',
  'invoiceDate',
  'billingPeriod',
  'accountNumber',
  'customerCompanyId',
  'subscriptionId',
  'subscriptionName',
  'chargeId',
  'chargeName',
  'chargeType',
  'productName',
  'unitOfMeasure',
  'serviceStartDate',
  'serviceEndDate',
  'quantity',
  'unitPrice',
  'chargeAmount',
  'taxRate',
  'taxAmount',
  'currency',
  'calculation',
];

export const VOICE_CDR_COLUMNS = [
  'recordId',
  'companyId',
  'companyName',
  'userId',
  'direction',
  'callingNumber',
  'calledNumber',
  'startTime',
  'durationSeconds',
] as const;
export const CONFERENCE_CDR_COLUMNS = [
  'recordId',
  'companyId',
  'companyName',
  'conferenceId',
  'participants',
  'startTime',
  'durationSeconds',
] as const;

export function invCsv(lines: InvLine[]): Buffer {
  return Buffer.from(
    stringify(
      lines.map((l) => INV_COLUMNS.map((c) => l[c] ?? '')),
      { header: true, columns: [...INV_COLUMNS] },
    ),
  );
}

export function voiceCdrCsv(records: CallRecord[], names: ReadonlyMap<string, string>): Buffer {
  const rows = records.map((r) => [
    r.id,
    r.companyId,
    names.get(r.companyId) ?? '',
    r.userId ?? '',
    r.direction,
    r.callingNumber,
    r.calledNumber,
    r.startTime,
    r.durationSeconds,
  ]);
  return Buffer.from(stringify(rows, { header: true, columns: [...VOICE_CDR_COLUMNS] }));
}

export function conferenceCdrCsv(records: ConferenceRecord[], names: ReadonlyMap<string, string>): Buffer {
  const rows = records.map((r) => [
    r.id,
    r.companyId,
    names.get(r.companyId) ?? '',
    r.conferenceId,
    r.participants,
    r.startTime,
    r.durationSeconds,
  ]);
  return Buffer.from(stringify(rows, { header: true, columns: [...CONFERENCE_CDR_COLUMNS] }));
}
