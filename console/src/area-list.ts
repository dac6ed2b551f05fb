// THE list of the console's areas, in the order of the menu.
import type { Area } from './areas.ts';
import { hierarchy } from './pages/hierarchy/index.ts';
import { commerce } from './pages/commerce/index.ts';
import { billing } from './pages/billing/index.ts';
import { voice } from './pages/voice/index.ts';
import { imports } from './pages/imports/index.ts';

export const AREAS: Area[] = [hierarchy, commerce, billing, voice, imports];
