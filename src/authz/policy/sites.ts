// Policy of sites (document 3).
import type { PolicyEntry } from '../grant.js';

export const sitesPolicy: Record<string, PolicyEntry> = {};
