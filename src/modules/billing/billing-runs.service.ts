// The billing run of a period (docs/billing.md, Invoices). For each BP DR and
// VAD company, in one transaction of its own (nothing half-written): it claims the period (a second
// or concurrent run of the period finds it claimed and changes nothing), then invoices the
// recurring item of each monthly subscription of its customers for the whole period, plus every
// charge of the ledger dated before the period's 1st not yet invoiced; writes the invoice with its
// items, marks the charges invoiced, and stores the PDF and the period's CSV files.
import { Decimal } from 'decimal.js';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { Ports } from '../../ports/ports.ts';
import type { Config } from '../../config.ts';
import { fail } from '../../errors/catalogue.ts';
import { newId } from '../../shared/ids.ts';
import type { CallRecord } from '../../ports/voice/voice.port.ts';
import type { ConferenceRecord } from '../../ports/providers/providers.port.ts';
import { addDays, moneyText, priceRecurring, yearMonth, type PricedItem } from './pricing.ts';
import { taxRateFor, taxTable } from './tax.ts';
import { chargeCurrency, isCharged, markInvoiced, pricedOffer, uninvoicedCharges } from './charges.service.ts';
import * as repo from './invoices.repo.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { conferenceCdrCsv, fileNameOf, filePath, invCsv, voiceCdrCsv, type InvLine } from './invoicing-files.ts';

/** Days from the invoice date to the due date (docs/billing.md, Invoices). */
export const PAYMENT_TERM_DAYS = 30;
export const PERIOD_PATTERN = '^[0-9]{4}-(0[1-9]|1[0-2])$';

export interface RunDeps {
  db: Db;
  ports: Pick<Ports, 'billing' | 'voice' | 'providers'>;
  config: Pick<Config, 'billingTaxRates'>;
  now: () => Date;
  log?: FastifyBaseLogger;
}

export interface CurrencyTotal {
  currency: string;
  amountWithoutTax: string;
  taxAmount: string;
  amount: string;
}

export interface RunSummary {
  billingPeriod: string;
  /** BP DR and VAD companies looked at. */
  companies: number;
  /** Invoices written by this run. */
  invoices: number;
  /** BPs whose period was billed before (an earlier or a concurrent run): left as they were. */
  alreadyBilled: number;
  /** BPs with nothing to invoice for the period (no invoice is written for them). */
  nothingToInvoice: number;
  items: number;
  /** Ledger charges invoiced. */
  charges: number;
  files: number;
  totals: CurrencyTotal[];
  durationMs: number;
}

/** The period's first day (UTC) and the next period's. */
export function periodBounds(period: string): { first: string; next: string } {
  const [y, m] = yearMonth(period);
  const next = new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
  return { first: `${period}-01`, next };
}

export const periodOf = (d: Date): string => d.toISOString().slice(0, 7);

/** The previous period: usage of that month is billed in arrears with this one (docs/billing.md, Files). */
export function previousPeriod(period: string): string {
  const [y, m] = yearMonth(period);
  return new Date(Date.UTC(y, m - 2, 1)).toISOString().slice(0, 7);
}

/** The month after the one of `d`: the period of the next invoice date (the next 1st). */
export const nextPeriodOf = (d: Date): string =>
  new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);

/**
 * A YYYY-MM month not later than the next one: the next invoice date may be run ahead (to invoice
 * today's changes now, at today's quantities); later ones not (their quantities are not known).
 */
export function checkPeriod(period: string, now: Date): void {
  if (!new RegExp(PERIOD_PATTERN).test(period) || period > nextPeriodOf(now))
    fail('BILLING_PERIOD_INVALID', { billingPeriod: period, latest: nextPeriodOf(now) });
}

const dateTime = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

interface Line {
  item: PricedItem;
  customerCompanyId: string | null;
  subscriptionId: string;
  subscriptionName: string;
  chargeId: string;
  chargeDate: string;
  chargeType: 'Recurring' | 'OneTime';
}

/** The fields an invoice item and its INV line share, from one line of the run. */
function lineFields(l: Line) {
  const i = l.item;
  return {
    customerCompanyId: l.customerCompanyId,
    subscriptionId: l.subscriptionId,
    subscriptionName: l.subscriptionName,
    chargeId: l.chargeId,
    chargeName: i.chargeName,
    chargeType: l.chargeType,
    productName: i.productName,
    unitOfMeasure: i.unitOfMeasure,
    serviceStartDate: i.serviceStartDate,
    serviceEndDate: i.serviceEndDate,
    quantity: i.quantity,
    unitPrice: i.unitPrice,
    chargeAmount: i.chargeAmount,
    taxRate: i.taxRate,
    taxAmount: i.taxAmount,
    calculation: i.calculation,
  };
}

interface Usage {
  calls: Map<string, CallRecord[]>;
  conferences: Map<string, ConferenceRecord[]>;
}

function byCompany<T extends { companyId: string }>(records: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of records) {
    const list = out.get(r.companyId);
    if (list) list.push(r);
    else out.set(r.companyId, [r]);
  }
  return out;
}

/** Billing account of the BP in the billing system (created on its first invoice). */
async function accountOf(deps: RunDeps, bp: repo.InvoicedBp, currency: string) {
  const found = await deps.ports.billing.findAccount(bp.id);
  if (found) return found;
  try {
    return await deps.ports.billing.createAccount({ companyId: bp.id, name: bp.name, currency });
  } catch (err) {
    // Another run created it meanwhile.
    const again = await deps.ports.billing.findAccount(bp.id);
    if (again) return again;
    throw err;
  }
}

type BpOutcome =
  | { kind: 'already' }
  | { kind: 'empty' }
  | {
      kind: 'invoiced';
      currency: string;
      items: number;
      charges: number;
      files: number;
      amountWithoutTax: Decimal;
      taxAmount: Decimal;
      amount: Decimal;
    };

async function billBp(
  deps: RunDeps,
  bp: repo.InvoicedBp,
  period: string,
  createdBy: string,
  usage: Usage,
  runAt: Date,
): Promise<BpOutcome> {
  const { first } = periodBounds(period);
  const taxRate = taxRateFor(taxTable(deps.config), bp.country);
  const chargeDate = dateTime(new Date(`${first}T00:00:00Z`));

  // Read and priced before the transaction: it holds only the writes.
  const recurring: Line[] = [];
  const subs = (await repo.recurringSubscriptions(deps.db, bp, new Date(`${first}T00:00:00Z`))).filter((r) =>
    isCharged(r.offer),
  );
  const pending = await uninvoicedCharges(deps.db, bp.id, first);
  // The invoice's currency: the BP's, else that of its first charge or priced subscription (as the ledger's chargeCurrency).
  const currency = bp.currency ?? pending[0]?.currency ?? (subs[0] && chargeCurrency(bp, subs[0].offer)) ?? 'EUR';
  let unpriced = 0;
  for (const row of subs) {
    // An offer without a price in the invoice's currency cannot be invoiced: counted, logged, left out.
    if (!row.offer.prices.some((p) => p.currency === currency)) {
      unpriced++;
      continue;
    }
    const offer = pricedOffer(row.offer, currency);
    const quantity = row.offer.businessModel === 'flat_fee' ? 1 : (row.maxNumberUsers ?? 0);
    if (quantity <= 0) continue;
    recurring.push({
      item: priceRecurring(offer, quantity, period, taxRate),
      customerCompanyId: row.companyId,
      subscriptionId: row.subscriptionId,
      subscriptionName: `${row.companyName} / ${row.offer.name}`,
      chargeId: row.offer.billingProductRatePlanChargeId ?? row.offer.id,
      chargeDate,
      chargeType: 'Recurring',
    });
  }
  if (unpriced)
    deps.log?.warn(
      { companyId: bp.id, currency, subscriptions: unpriced },
      'billing run: subscriptions to offers without a price in the invoice currency left out',
    );
  const names = await repo.customerNames(deps.db, bp);
  const calls = [...names.keys()]
    .flatMap((id) => usage.calls.get(id) ?? [])
    .sort((a, b) => a.startTime.localeCompare(b.startTime));
  const conferences = [...names.keys()]
    .flatMap((id) => usage.conferences.get(id) ?? [])
    .sort((a, b) => a.startTime.localeCompare(b.startTime));
  const account = await accountOf(deps, bp, currency);

  return deps.db.transaction(async (tx) => {
    await repo.lockBp(tx, bp.id);
    if (!(await repo.claimPeriod(tx, bp.id, period, runAt))) return { kind: 'already' } as const;
    // Charges in another currency (a BP without a currency whose offers are priced in several)
    // cannot be added to this invoice: they stay in the ledger, and the log says so.
    const all = await uninvoicedCharges(tx, bp.id, first);
    const charges = all.filter((c) => c.currency === currency);
    if (charges.length < all.length)
      deps.log?.warn(
        { companyId: bp.id, currency, charges: all.length - charges.length },
        'billing run: ledger charges in another currency than the invoice left uninvoiced',
      );
    const lines: Line[] = [...recurring];
    for (const c of charges) {
      for (const item of c.items) {
        lines.push({
          item,
          customerCompanyId: c.companyId,
          subscriptionId: c.subscriptionId,
          subscriptionName: `${names.get(c.companyId) ?? c.companyId} / ${item.productName}`,
          chargeId: c.id,
          chargeDate: dateTime(c.createdAt),
          chargeType: 'OneTime',
        });
      }
    }
    if (lines.length === 0 && calls.length === 0 && conferences.length === 0) return { kind: 'empty' } as const;

    const invoiceDate = runAt.toISOString().slice(0, 10);
    const files: repo.NewInvoicingFile[] = [];
    const fileRow = (
      type: 'services' | 'voice' | 'conference',
      fileType: 'INV' | 'CDR',
      data: Buffer,
      count: number,
      invoice?: { id: string; number: string },
    ): repo.NewInvoicingFile => {
      const fileName = fileNameOf(fileType, type, period);
      return {
        id: newId(),
        companyId: bp.id,
        billingPeriod: period,
        invoiceType: type,
        fileType,
        path: filePath(bp.id, period, type, fileName),
        fileName,
        invoiceId: invoice?.id ?? null,
        invoiceNumber: invoice?.number ?? null,
        invoiceCreationDate: invoiceDate,
        lines: count,
        size: data.length,
        data,
        createdAt: runAt,
      };
    };
    let totals = { amountWithoutTax: new Decimal(0), taxAmount: new Decimal(0), amount: new Decimal(0) };
    if (lines.length > 0) {
      const sequence = await repo.nextSequence(tx, bp.id);
      const invoiceNumber = `INV-${String(sequence).padStart(6, '0')}`;
      const invoiceId = newId();
      const fileId = newId();
      // Totals are sums of the rounded items and of their rounded taxes (docs/billing.md, Money).
      const amountWithoutTax = lines.reduce((s, l) => s.plus(l.item.chargeAmount), new Decimal(0));
      const taxAmount = lines.reduce((s, l) => s.plus(l.item.taxAmount), new Decimal(0));
      const amount = amountWithoutTax.plus(taxAmount);
      totals = { amountWithoutTax, taxAmount, amount };
      const money = (d: Decimal) => moneyText(d, currency);
      const dueDate = addDays(invoiceDate, PAYMENT_TERM_DAYS);
      await repo.insertInvoice(tx, {
        id: invoiceId,
        companyId: bp.id,
        billingPeriod: period,
        accountId: account.id,
        accountNumber: account.accountNumber,
        accountName: bp.name,
        invoiceDate,
        dueDate,
        invoiceTargetDate: first,
        invoiceNumber,
        sequence,
        currency,
        amountWithoutTax: money(amountWithoutTax),
        taxAmount: money(taxAmount),
        amount: money(amount),
        balance: money(amount),
        creditBalanceAdjustmentAmount: '0',
        createdBy,
        status: 'Posted',
        body: `/v1/files/${fileId}`,
        invoiceFiles: [{ id: fileId, versionNumber: 1 }],
        createdAt: runAt,
        updatedAt: runAt,
      });
      await repo.insertItems(
        tx,
        lines.map((l, position) => ({
          id: newId(),
          invoiceId,
          position,
          ...lineFields(l),
          chargeDescription: l.item.chargeDescription,
          chargeDate: l.chargeDate,
          processingType: 'Charge',
        })),
      );
      if (charges.length)
        await markInvoiced(
          tx,
          charges.map((c) => c.id),
          invoiceId,
        );
      const pdf = await renderInvoicePdf(
        {
          invoiceNumber,
          invoiceDate,
          dueDate,
          billingPeriod: period,
          currency,
          accountNumber: account.accountNumber,
          bp,
          items: lines.map((l) => ({ ...l.item, subscriptionName: l.subscriptionName })),
          amountWithoutTax: money(amountWithoutTax),
          taxAmount: money(taxAmount),
          amount: money(amount),
        },
        runAt,
      );
      await repo.insertInvoiceFile(tx, {
        id: fileId,
        invoiceId,
        companyId: bp.id,
        versionNumber: 1,
        fileName: `${invoiceNumber}.pdf`,
        contentType: 'application/pdf',
        data: pdf,
        createdAt: runAt,
      });
      const invLines: InvLine[] = lines.map((l) => ({
        invoiceNumber,
        invoiceDate,
        billingPeriod: period,
        accountNumber: account.accountNumber,
        ...lineFields(l),
        currency,
      }));
      files.push(
        fileRow('services', 'INV', invCsv(invLines), invLines.length, { id: invoiceId, number: invoiceNumber }),
      );
      await repo.setPeriodInvoice(tx, bp.id, period, invoiceId);
    }
    if (calls.length) files.push(fileRow('voice', 'CDR', voiceCdrCsv(calls, names), calls.length));
    if (conferences.length)
      files.push(fileRow('conference', 'CDR', conferenceCdrCsv(conferences, names), conferences.length));
    await repo.insertInvoicingFiles(tx, files);
    return {
      kind: 'invoiced',
      currency,
      items: lines.length,
      charges: charges.length,
      files: files.length + (lines.length ? 1 : 0),
      ...totals,
    } as const;
  });
}

/**
 * Runs the billing of a period over every BP DR and VAD company; `createdBy` is the superadmin who
 * asked, or `billing-run` for the monthly schedule. Progress goes to the log every 100 BPs.
 */
export async function runBilling(deps: RunDeps, period: string, createdBy: string): Promise<RunSummary> {
  const started = Date.now();
  const runAt = deps.now();
  checkPeriod(period, runAt);
  const bps = await repo.invoicedBps(deps.db);
  // Usage of the previous month, billed in arrears with this period (docs/billing.md, Files).
  const usageFrom = `${previousPeriod(period)}-01T00:00:00.000Z`;
  const usageTo = `${period}-01T00:00:00.000Z`;
  const usage: Usage = {
    calls: byCompany(await deps.ports.voice.callRecords(usageFrom, usageTo)),
    conferences: byCompany(await deps.ports.providers.conferenceRecords(usageFrom, usageTo)),
  };
  const summary: RunSummary = {
    billingPeriod: period,
    companies: bps.length,
    invoices: 0,
    alreadyBilled: 0,
    nothingToInvoice: 0,
    items: 0,
    charges: 0,
    files: 0,
    totals: [],
    durationMs: 0,
  };
  const totals = new Map<string, { amountWithoutTax: Decimal; taxAmount: Decimal; amount: Decimal }>();
  deps.log?.info({ billingPeriod: period, companies: bps.length }, 'billing run started');
  for (const [i, bp] of bps.entries()) {
    const out = await billBp(deps, bp, period, createdBy, usage, runAt);
    if (out.kind === 'already') summary.alreadyBilled++;
    else if (out.kind === 'empty') summary.nothingToInvoice++;
    else {
      if (out.items > 0) summary.invoices++;
      summary.items += out.items;
      summary.charges += out.charges;
      summary.files += out.files;
      const t = totals.get(out.currency) ?? {
        amountWithoutTax: new Decimal(0),
        taxAmount: new Decimal(0),
        amount: new Decimal(0),
      };
      totals.set(out.currency, {
        amountWithoutTax: t.amountWithoutTax.plus(out.amountWithoutTax),
        taxAmount: t.taxAmount.plus(out.taxAmount),
        amount: t.amount.plus(out.amount),
      });
    }
    if ((i + 1) % 100 === 0)
      deps.log?.info({ billingPeriod: period, done: i + 1, of: bps.length }, 'billing run progress');
  }
  summary.totals = [...totals.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([currency, t]) => ({
      currency,
      amountWithoutTax: moneyText(t.amountWithoutTax, currency),
      taxAmount: moneyText(t.taxAmount, currency),
      amount: moneyText(t.amount, currency),
    }));
  summary.durationMs = Date.now() - started;
  deps.log?.info({ summary }, 'billing run ended');
  return summary;
}
