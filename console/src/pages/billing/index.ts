// Billing (issue 28, point 3): invoices, their PDF and the invoicing files.
import type { Area } from '../../areas.ts';

export const billing: Area = { label: 'Billing', nav: [], routes: [] };
