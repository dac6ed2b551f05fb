// Commerce (issue 28, point 3): catalogs and offers, subscriptions, quotations, licences.
import type { Area } from '../../areas.ts';

export const commerce: Area = { label: 'Commerce', nav: [], routes: [] };
