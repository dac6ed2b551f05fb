// Voice (issue 28, point 4): CloudPBXs and everything under them.
import type { Area } from '../../areas.ts';

export const voice: Area = { label: 'Voice', nav: [], routes: [] };
