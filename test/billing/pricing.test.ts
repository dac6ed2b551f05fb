// Issue 11, "Pricing rules" (docs/billing.md): each rule of the one pricing function, and the
// worked examples of the issue, exact to the cent.
import { describe, it } from 'node:test';
import { Decimal } from 'decimal.js';
import { expect } from '../support/expect.ts';
import {
  addMonths,
  minorUnits,
  priceChange,
  pricePiece,
  priceRecurring,
  termSpan,
  PricingError,
  type PricedOffer,
} from '../../src/modules/billing/pricing.ts';
import { BUILT_IN_TAX_RATES, taxRateFor, taxTable } from '../../src/modules/billing/tax.ts';
import { loadConfig, ConfigError } from '../../src/config.ts';

const FR = '0.20';
const offer = (o: Partial<PricedOffer> = {}): PricedOffer => ({
  currency: 'EUR',
  unitPrice: '5.00',
  model: 'nb_users',
  prepaidMonths: null,
  productName: 'Business',
  chargeName: 'Business licence',
  productRatePlanId: 'rp-1',
  productRatePlanChargeId: 'rpc-1',
  unitOfMeasure: 'users',
  ...o,
});

describe('issue 11, worked examples (10 users at 5.00 EUR, France 20 %)', () => {
  it('issue 11, worked example 1: monthly, quoted on 2026-06-15: one item of 26.67, tax 5.33, amount 32.00, contractedMrr 50.00, TCV null', () => {
    const p = priceChange(offer(), { date: '2026-06-15', before: null, after: { quantity: 10 } }, FR);
    expect(p.items).toHaveLength(1);
    expect(p.items[0]).toMatchObject({
      serviceStartDate: '2026-06-15',
      serviceEndDate: '2026-06-30',
      quantity: 10,
      chargeAmount: '26.67',
      taxAmount: '5.33',
      calculation: '10 users x 5.00 EUR x 16/30 days',
      kind: 'first-period',
    });
    expect(p).toMatchObject({
      amountWithoutTax: '26.67',
      taxAmount: '5.33',
      amount: '32.00',
      mrr: '50.00',
      dmrr: '50.00',
      tcv: null,
      dtcv: null,
      expirationDate: null,
    });
  });

  it('issue 11, worked example 2: raising to 15 users on 2026-06-20: an item of 9.17, amount 11.00, mrr 75.00, dmrr 25.00', () => {
    const p = priceChange(offer(), { date: '2026-06-20', before: { quantity: 10 }, after: { quantity: 15 } }, FR);
    expect(p.items).toHaveLength(1);
    expect(p.items[0]).toMatchObject({
      serviceStartDate: '2026-06-20',
      serviceEndDate: '2026-06-30',
      quantity: 5,
      chargeAmount: '9.17',
      taxAmount: '1.83',
      calculation: '5 users x 5.00 EUR x 11/30 days',
      kind: 'increase',
    });
    expect(p).toMatchObject({ amount: '11.00', mrr: '75.00', dmrr: '25.00', tcv: null, dtcv: null });
  });

  it('issue 11, worked example 3: a 12-month prepaid offer: 600.00, tax 120.00', () => {
    const p = priceChange(
      offer({ prepaidMonths: 12 }),
      { date: '2026-06-15', before: null, after: { quantity: 10 } },
      FR,
    );
    expect(p.items).toHaveLength(1);
    expect(p.items[0]).toMatchObject({
      serviceStartDate: '2026-06-15',
      serviceEndDate: '2027-06-14',
      chargeAmount: '600.00',
      taxAmount: '120.00',
      calculation: '10 users x 5.00 EUR x 12 months',
      kind: 'prepaid-term',
    });
    expect(p).toMatchObject({
      amountWithoutTax: '600.00',
      taxAmount: '120.00',
      amount: '720.00',
      mrr: '50.00',
      tcv: '600.00',
      dtcv: '600.00',
      expirationDate: '2027-06-15',
    });
  });

  it('issue 11, worked example 4: the prepaid add-on of 5 users from 2026-06-20 to 2027-06-14: 295.97 (11 months + 26/31 days)', () => {
    const p = priceChange(
      offer({ prepaidMonths: 12 }),
      { date: '2026-06-20', termStart: '2026-06-15', before: { quantity: 10 }, after: { quantity: 15 } },
      FR,
    );
    expect(p.items).toHaveLength(1);
    expect(p.items[0]).toMatchObject({
      serviceStartDate: '2026-06-20',
      serviceEndDate: '2027-06-14',
      quantity: 5,
      chargeAmount: '295.97',
      calculation: '5 users x 5.00 EUR x (11 months + 26/31 days)',
      kind: 'prepaid-add-on',
    });
    expect(p).toMatchObject({
      mrr: '75.00',
      dmrr: '25.00',
      dtcv: '295.97',
      tcv: '895.97',
      expirationDate: '2027-06-15',
    });
  });
});

describe('issue 11, pricing rules: money', () => {
  it('rule "money 1": each item is rounded half-up to the currency\'s minor units (EUR 2, JPY 0, BHD 3)', () => {
    expect([minorUnits('EUR'), minorUnits('JPY'), minorUnits('BHD')]).toEqual([2, 0, 3]);
    // 1 x 0.13 x 15/30 = 0.065 -> 0.07 (half-up; half-even would give 0.06)
    expect(pricePiece(offer({ unitPrice: '0.13' }), 1, '2026-06-01', '2026-06-15', '0').chargeAmount).toBe('0.07');
    expect(
      pricePiece(offer({ currency: 'JPY', unitPrice: '100' }), 1, '2026-06-01', '2026-06-15', '0').chargeAmount,
    ).toBe('50');
    expect(
      pricePiece(offer({ currency: 'JPY', unitPrice: '101' }), 1, '2026-06-01', '2026-06-15', '0').chargeAmount,
    ).toBe('51'); // 50.5 -> 51
    expect(
      pricePiece(offer({ currency: 'BHD', unitPrice: '1.001' }), 1, '2026-06-01', '2026-06-15', '0').chargeAmount,
    ).toBe('0.501'); // 0.5005 -> 0.501
  });

  it('rule "money 2": tax per item = round(chargeAmount x rate); totals are sums of the rounded items', () => {
    // Two items whose unrounded taxes would sum to another cent: 9.17 x 0.2 = 1.834 -> 1.83; 0.05 x 0.2 = 0.01
    const p = priceChange(
      offer({ prepaidMonths: 12 }),
      {
        date: '2026-06-20',
        termStart: '2026-06-15',
        before: { quantity: 10, prepaidMonths: 12 },
        after: { quantity: 11, prepaidMonths: 24 },
      },
      FR,
    );
    expect(p.items.map((i) => i.kind)).toEqual(['prepaid-extension', 'prepaid-add-on']);
    for (const i of p.items)
      expect(i.taxAmount).toBe(
        new Decimal(i.chargeAmount).times('0.2').toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
      );
    const sum = (k: 'chargeAmount' | 'taxAmount') => p.items.reduce((s, i) => s.plus(i[k]), new Decimal(0));
    expect(p.amountWithoutTax).toBe(sum('chargeAmount').toFixed(2));
    expect(p.taxAmount).toBe(sum('taxAmount').toFixed(2));
    expect(p.amount).toBe(sum('chargeAmount').plus(sum('taxAmount')).toFixed(2));
    // An item whose tax is a half cent: 0.25 x 0.2 = 0.05; 0.35 x 0.1 = 0.035 -> 0.04 (half-up)
    expect(pricePiece(offer({ unitPrice: '0.35' }), 1, '2026-06-01', '2026-06-30', '0.1')).toMatchObject({
      chargeAmount: '0.35',
      taxAmount: '0.04',
    });
  });

  it('rule "money 3": the tax rate comes from the invoiced BP\'s country, from a configurable table (BILLING_TAX_RATES over the built-in one)', () => {
    expect(taxRateFor(BUILT_IN_TAX_RATES, 'FRA')).toBe('0.20');
    expect(taxRateFor(BUILT_IN_TAX_RATES, 'DEU')).toBe('0.19');
    expect(taxRateFor(BUILT_IN_TAX_RATES, null)).toBe('0.20'); // no country: FRA
    expect(taxRateFor(BUILT_IN_TAX_RATES, 'USA')).toBe('0');
    const table = taxTable(loadConfig({ BILLING_TAX_RATES: '{"USA":"0.07","FRA":"0.055"}' }));
    expect([taxRateFor(table, 'USA'), taxRateFor(table, 'FRA'), taxRateFor(table, 'DEU')]).toEqual([
      '0.07',
      '0.055',
      '0.19',
    ]);
    expect(() => loadConfig({ BILLING_TAX_RATES: '{"France":"0.2"}' })).toThrow(ConfigError);
    expect(() => loadConfig({ BILLING_TAX_RATES: '{"FRA":0.2}' })).toThrow(ConfigError);
    expect(() => loadConfig({ BILLING_TAX_RATES: '{"FRA":"1.5"}' })).toThrow(ConfigError);
    expect(() => loadConfig({ BILLING_TAX_RATES: 'FRA=0.2' })).toThrow(ConfigError);
  });
});

describe('issue 11, pricing rules: monthly offers', () => {
  it('rule "monthly 1": open-ended, so the TCV fields are null', () => {
    const p = priceChange(offer(), { date: '2026-02-01', before: null, after: { quantity: 3 } }, FR);
    expect(p.tcv).toBeNull();
    expect(p.dtcv).toBeNull();
    expect(p.expirationDate).toBeNull();
  });

  it('rule "monthly 2": billed in advance on the 1st for the whole calendar month (priceRecurring)', () => {
    const i = priceRecurring(offer(), 10, '2026-02', FR);
    expect(i).toMatchObject({
      serviceStartDate: '2026-02-01',
      serviceEndDate: '2026-02-28',
      chargeAmount: '50.00',
      taxAmount: '10.00',
      calculation: '10 users x 5.00 EUR x 1 month',
      kind: 'recurring',
    });
    expect(priceRecurring(offer(), 10, '2028-02', FR).serviceEndDate).toBe('2028-02-29');
    expect(() => priceRecurring(offer({ prepaidMonths: 12 }), 10, '2026-02', FR)).toThrow(PricingError);
  });

  it('rule "monthly 3": a first partial month is prorated by the actual days of that month, end day included', () => {
    const feb = priceChange(offer(), { date: '2026-02-15', before: null, after: { quantity: 10 } }, FR).items[0];
    expect(feb).toMatchObject({
      serviceEndDate: '2026-02-28',
      calculation: '10 users x 5.00 EUR x 14/28 days',
      chargeAmount: '25.00',
    });
    const last = priceChange(offer(), { date: '2026-07-31', before: null, after: { quantity: 10 } }, FR).items[0];
    expect(last).toMatchObject({
      serviceStartDate: '2026-07-31',
      serviceEndDate: '2026-07-31',
      calculation: '10 users x 5.00 EUR x 1/31 days',
      chargeAmount: '1.61',
    });
    const first = priceChange(offer(), { date: '2026-07-01', before: null, after: { quantity: 10 } }, FR).items[0];
    expect(first).toMatchObject({ calculation: '10 users x 5.00 EUR x 1 month', chargeAmount: '50.00' });
  });

  it('rule "monthly 4": an increase mid-month adds a delta item for the remaining days, end day included', () => {
    const p = priceChange(offer(), { date: '2026-06-30', before: { quantity: 10 }, after: { quantity: 12 } }, FR);
    expect(p.items).toEqual([
      expect.objectContaining({
        quantity: 2,
        serviceStartDate: '2026-06-30',
        serviceEndDate: '2026-06-30',
        calculation: '2 users x 5.00 EUR x 1/30 days',
        chargeAmount: '0.33',
      }),
    ]);
  });

  it('rule "monthly 5": a decrease gives no item (it takes effect next period) and a negative dmrr', () => {
    const p = priceChange(offer(), { date: '2026-06-20', before: { quantity: 10 }, after: { quantity: 4 } }, FR);
    expect(p.items).toEqual([]);
    expect(p).toMatchObject({
      mrr: '20.00',
      dmrr: '-30.00',
      amount: '0.00',
      amountWithoutTax: '0.00',
      taxAmount: '0.00',
    });
  });

  it('rule "monthly 6": a flat fee is one fee per month whatever the number of users', () => {
    const p = priceChange(
      offer({ model: 'flat_fee', unitPrice: '30', unitOfMeasure: 'fee' }),
      { date: '2026-06-16', before: null, after: { quantity: 7 } },
      FR,
    );
    expect(p.items[0]).toMatchObject({ quantity: 1, calculation: '30.00 EUR x 15/30 days', chargeAmount: '15.00' });
    expect(p.mrr).toBe('30.00');
  });
});

describe('issue 11, pricing rules: taking back a prepaid add-on (doc 1, update subscription, rule 6)', () => {
  const prepaid = offer({ prepaidMonths: 12 });
  it('rule "prepaid 5": taking back the whole add-on on its own day is a credit that cancels it to the cent', () => {
    const added = priceChange(
      prepaid,
      { date: '2026-06-20', termStart: '2026-06-15', before: { quantity: 10 }, after: { quantity: 15 } },
      FR,
    );
    const back = priceChange(
      prepaid,
      { date: '2026-06-20', termStart: '2026-06-15', before: { quantity: 15 }, after: { quantity: 10 } },
      FR,
    );
    expect(back.items).toHaveLength(1);
    expect(back.items[0]).toMatchObject({
      serviceStartDate: '2026-06-20',
      serviceEndDate: '2027-06-14',
      quantity: 5,
      chargeAmount: '-295.97',
      taxAmount: '-59.19',
      calculation: '- 5 users x 5.00 EUR x (11 months + 26/31 days)',
      kind: 'prepaid-take-back',
    });
    expect(back).toMatchObject({ amountWithoutTax: '-295.97', amount: '-355.16', dmrr: '-25.00', dtcv: '-295.97' });
    expect(new Decimal(added.amount).plus(back.amount).toFixed(2)).toBe('0.00');
  });

  it('rule "prepaid 5": taken back later in the month, the units are credited from that day: the days held are paid', () => {
    const back = priceChange(
      prepaid,
      { date: '2026-06-25', termStart: '2026-06-15', before: { quantity: 15 }, after: { quantity: 13 } },
      FR,
    );
    // 2026-06-25..2027-06-14: 11 months, then 2027-05-25..2027-06-14 = 21 of the 31 days of 2027-05-25..2027-06-24.
    expect(back.items[0]).toMatchObject({
      quantity: 2,
      calculation: '- 2 users x 5.00 EUR x (11 months + 21/31 days)',
      kind: 'prepaid-take-back',
    });
    expect(back.items[0].chargeAmount).toBe(
      new Decimal(10)
        .times(new Decimal(11).plus(new Decimal(21).div(31)))
        .toDecimalPlaces(2, Decimal.ROUND_HALF_UP)
        .negated()
        .toFixed(2),
    );
  });

  it('rule "prepaid 5": a credit of a free offer is 0, never -0', () => {
    const back = priceChange(
      offer({ prepaidMonths: 12, unitPrice: '0' }),
      { date: '2026-06-20', termStart: '2026-06-15', before: { quantity: 15 }, after: { quantity: 10 } },
      FR,
    );
    expect(back.items[0]).toMatchObject({ chargeAmount: '0.00', taxAmount: '0.00' });
    expect(back.amount).toBe('0.00');
  });
});

describe('issue 11, pricing rules: prepaid offers', () => {
  it('rule "prepaid 1": the term runs prepaidMonths months from creation and is invoiced whole, up front: MRR = unit x qty, TCV = MRR x months', () => {
    const p = priceChange(
      offer({ prepaidMonths: 24, unitPrice: '7.5' }),
      { date: '2026-01-31', before: null, after: { quantity: 4 } },
      FR,
    );
    expect(p.items[0]).toMatchObject({
      serviceStartDate: '2026-01-31',
      serviceEndDate: '2028-01-30',
      chargeAmount: '720.00',
      calculation: '4 users x 7.50 EUR x 24 months',
    });
    expect(p).toMatchObject({
      mrr: '30.00',
      dmrr: '30.00',
      tcv: '720.00',
      dtcv: '720.00',
      expirationDate: '2028-01-31',
    });
  });

  it('rule "prepaid 2": an increase is an add-on ending with the term: whole months first, then the remaining days over that month\'s day count', () => {
    expect(termSpan('2026-06-20', '2027-06-14')).toEqual({ months: 11, days: 26, monthDays: 31 });
    expect(termSpan('2026-06-15', '2027-06-14')).toEqual({ months: 12, days: 0, monthDays: 30 });
    // Add-on from the term's first day: exactly the term's price for those units.
    const whole = priceChange(
      offer({ prepaidMonths: 12 }),
      { date: '2026-06-15', termStart: '2026-06-15', before: { quantity: 10 }, after: { quantity: 11 } },
      FR,
    );
    expect(whole.items[0]).toMatchObject({ chargeAmount: '60.00', calculation: '1 users x 5.00 EUR x 12 months' });
    // Add-on in the term's last partial month only.
    const late = priceChange(
      offer({ prepaidMonths: 12 }),
      { date: '2027-06-01', termStart: '2026-06-15', before: { quantity: 10 }, after: { quantity: 12 } },
      FR,
    );
    expect(late.items[0]).toMatchObject({
      serviceStartDate: '2027-06-01',
      serviceEndDate: '2027-06-14',
      calculation: '2 users x 5.00 EUR x 14/30 days',
      chargeAmount: '4.67',
    });
    // A change outside the term is refused.
    expect(() =>
      priceChange(
        offer({ prepaidMonths: 12 }),
        { date: '2027-06-15', termStart: '2026-06-15', before: { quantity: 10 }, after: { quantity: 12 } },
        FR,
      ),
    ).toThrow(PricingError);
  });

  it('rule "prepaid 3": extending prepaidMonths adds TCV for the added months, with dmrr 0; it cannot be shortened', () => {
    const p = priceChange(
      offer({ prepaidMonths: 12 }),
      {
        date: '2026-09-01',
        termStart: '2026-06-15',
        before: { quantity: 10, prepaidMonths: 12 },
        after: { quantity: 10, prepaidMonths: 36 },
      },
      FR,
    );
    expect(p.items).toEqual([
      expect.objectContaining({
        kind: 'prepaid-extension',
        serviceStartDate: '2027-06-15',
        serviceEndDate: '2029-06-14',
        chargeAmount: '1200.00',
        calculation: '10 users x 5.00 EUR x 24 months',
      }),
    ]);
    expect(p).toMatchObject({
      mrr: '50.00',
      dmrr: '0.00',
      dtcv: '1200.00',
      tcv: '1800.00',
      expirationDate: '2029-06-15',
    });
    expect(() =>
      priceChange(
        offer({ prepaidMonths: 24 }),
        {
          date: '2026-09-01',
          termStart: '2026-06-15',
          before: { quantity: 10, prepaidMonths: 24 },
          after: { quantity: 10, prepaidMonths: 12 },
        },
        FR,
      ),
    ).toThrow(PricingError);
  });

  it('rule "prepaid 4": month arithmetic clamps to the month\'s end (31 January + 1 month = 28 February)', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-15', 14)).toBe('2028-01-15');
  });
});
