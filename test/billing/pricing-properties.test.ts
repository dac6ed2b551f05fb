// Issue 11, point 6 (fast-check): the prorated pieces of any period sum to the full-period price
// within one minor unit per item, and rounding never loses or creates a minor unit in totals.
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Decimal } from 'decimal.js';
import { expect } from '../support/expect.ts';
import {
  addDays,
  addMonths,
  daysInMonth,
  minorUnits,
  priceChange,
  pricePiece,
  priceRecurring,
  type ChargeModel,
  type PricedOffer,
} from '../../src/modules/billing/pricing.ts';

const CURRENCIES = ['EUR', 'USD', 'JPY', 'BHD', 'GBP', 'KWD', 'CHF'];
const RATES = ['0', '0.055', '0.19', '0.20', '0.255', '0.27'];

const arbOffer = (prepaid: boolean): fc.Arbitrary<PricedOffer> =>
  fc.record({
    currency: fc.constantFrom(...CURRENCIES),
    // 0.000001 to 9999.999999, as decimal text with up to 6 decimals
    unitPrice: fc
      .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 999_999 }))
      .map(([i, f]) => `${i}.${String(f).padStart(6, '0')}`),
    model: fc.constantFrom<ChargeModel>('nb_users', 'nb_services', 'flat_fee'),
    prepaidMonths: prepaid ? fc.integer({ min: 1, max: 60 }) : fc.constant(null),
    productName: fc.constant('P'),
    chargeName: fc.constant('C'),
    productRatePlanId: fc.constant(null),
    productRatePlanChargeId: fc.constant(null),
    unitOfMeasure: fc.constant('users'),
  });

const arbDate = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const arbPeriod = fc
  .tuple(fc.integer({ min: 2020, max: 2035 }), fc.integer({ min: 1, max: 12 }))
  .map(([y, m]) => `${y}-${String(m).padStart(2, '0')}`);
const minor = (currency: string) => new Decimal(1).div(new Decimal(10).pow(minorUnits(currency)));

describe('issue 11, point 6: property tests of the pricing function', () => {
  it('issue 11, point 6, property 1: the prorated pieces of a month, split at random days, sum to the whole month within one minor unit per piece', () => {
    fc.assert(
      fc.property(
        arbOffer(false),
        fc.integer({ min: 0, max: 500 }),
        arbPeriod,
        fc.uniqueArray(fc.integer({ min: 2, max: 31 }), { maxLength: 8 }),
        fc.constantFrom(...RATES),
        (offer, quantity, period, cuts, rate) => {
          const [y, m] = period.split('-').map(Number);
          const last = daysInMonth(y, m);
          const starts = [1, ...cuts.filter((d) => d <= last).sort((a, b) => a - b)];
          const day = (d: number) => `${period}-${String(d).padStart(2, '0')}`;
          const pieces = starts.map((s, i) =>
            pricePiece(offer, quantity, day(s), day(i + 1 < starts.length ? starts[i + 1] - 1 : last), rate),
          );
          const whole = new Decimal(priceRecurring(offer, quantity, period, rate).chargeAmount);
          const sum = pieces.reduce((s, p) => s.plus(p.chargeAmount), new Decimal(0));
          expect(sum.minus(whole).abs().lte(minor(offer.currency).times(pieces.length))).toBe(true);
          // the pieces cover the month exactly, day after day
          expect(pieces.map((p) => p.serviceStartDate)[0]).toBe(day(1));
          for (let i = 1; i < pieces.length; i++)
            expect(pieces[i].serviceStartDate).toBe(addDays(pieces[i - 1].serviceEndDate, 1));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("issue 11, point 6, property 2: a prepaid add-on from the term's first day is the whole term's price exactly; a later add-on never costs more than an earlier one, and ends with the term", () => {
    fc.assert(
      // per-unit offers: a flat fee has no add-on
      fc.property(
        arbOffer(true).filter((o) => o.model !== 'flat_fee'),
        fc.integer({ min: 1, max: 200 }),
        arbDate,
        fc.uniqueArray(fc.integer({ min: 0, max: 1900 }), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...RATES),
        (offer, step, termStart, offsets, rate) => {
          const end = addMonths(termStart, offer.prepaidMonths!);
          const term = priceChange(offer, { date: termStart, before: null, after: { quantity: step } }, rate);
          const fromStart = priceChange(
            offer,
            { date: termStart, termStart, before: { quantity: 0 }, after: { quantity: step } },
            rate,
          );
          expect(fromStart.amountWithoutTax).toBe(term.amountWithoutTax);
          let previous = new Decimal(term.amountWithoutTax);
          for (const o of [...offsets].sort((x, y) => x - y)) {
            const date = addDays(termStart, o);
            if (date >= end) break;
            const later = priceChange(
              offer,
              { date, termStart, before: { quantity: step }, after: { quantity: 2 * step } },
              rate,
            );
            const amount = new Decimal(later.amountWithoutTax);
            expect(amount.lte(previous)).toBe(true);
            previous = amount;
            if (later.items.length) expect(later.items[0].serviceEndDate).toBe(addDays(end, -1));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("issue 11, point 6, property 3: rounding never loses or creates a minor unit: totals are exactly the sums of the rounded items, every amount has the currency's decimals", () => {
    const arbChange = fc.record({
      offer: fc.boolean().chain((p) => arbOffer(p)),
      date: arbDate,
      before: fc.option(fc.integer({ min: 0, max: 300 })),
      after: fc.integer({ min: 0, max: 600 }),
      extend: fc.integer({ min: 0, max: 48 }),
      rate: fc.constantFrom(...RATES),
    });
    fc.assert(
      fc.property(arbChange, ({ offer, date, before, after, extend, rate }) => {
        const months = offer.prepaidMonths;
        const change = {
          date,
          termStart: date,
          before: before === null ? null : { quantity: before, ...(months ? { prepaidMonths: months } : {}) },
          after: { quantity: after, ...(months && before !== null ? { prepaidMonths: months + extend } : {}) },
        };
        const p = priceChange(offer, change, rate);
        const digits = minorUnits(offer.currency);
        const shape = new RegExp(digits === 0 ? '^-?\\d+$' : `^-?\\d+\\.\\d{${digits}}$`);
        const charges = p.items.reduce((s, i) => s.plus(i.chargeAmount), new Decimal(0));
        const taxes = p.items.reduce((s, i) => s.plus(i.taxAmount), new Decimal(0));
        expect(new Decimal(p.amountWithoutTax).equals(charges)).toBe(true);
        expect(new Decimal(p.taxAmount).equals(taxes)).toBe(true);
        expect(new Decimal(p.amount).equals(charges.plus(taxes))).toBe(true);
        for (const v of [
          p.amount,
          p.amountWithoutTax,
          p.taxAmount,
          p.mrr,
          p.dmrr,
          ...p.items.flatMap((i) => [i.chargeAmount, i.taxAmount]),
        ])
          expect(v).toMatch(shape);
        for (const i of p.items)
          expect(
            new Decimal(i.taxAmount).equals(
              new Decimal(i.chargeAmount).times(rate).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP),
            ),
          ).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
