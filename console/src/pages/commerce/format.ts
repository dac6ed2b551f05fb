// How the commerce pages write money, dates and quantities.

/** An amount in its currency, with the currency's minor units (document 1: ISO 4217 codes). */
export function money(amount: number | string, currency: string): string {
  const n = typeof amount === 'string' ? Number(amount) : amount;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(n);
  } catch {
    return `${n.toFixed(2)} ${currency}`;
  }
}

export const day = (iso: string | null | undefined): string => (iso ? new Date(iso).toLocaleDateString() : '');

/** Prices of an offer, one per currency. */
export function prices(list: readonly { currency: string; amount: string }[] | undefined): string {
  if (!list || list.length === 0) return '—';
  return list.map((p) => money(p.amount, p.currency)).join(', ');
}

/** Document 1, Offer: businessModel in words. */
export function model(m: string | null | undefined): string {
  switch (m) {
    case 'nb_users':
      return 'Per user';
    case 'nb_services':
      return 'Per service';
    case 'usage':
      return 'Usage';
    case 'flat_fee':
      return 'Flat fee';
    default:
      return '—';
  }
}

/** Offers whose subscriptions carry a quantity (document 1, create a subscription, rule 9). */
export const hasQuantity = (m: string | null | undefined): boolean => m === 'nb_users' || m === 'nb_services';
