// Bulk import (issue 28, point 5): templates, check, import, reports.
import type { Area } from '../../areas.ts';

export const imports: Area = { label: 'Bulk import', nav: [], routes: [] };
